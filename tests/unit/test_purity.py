"""The layers import in one direction (app -> api -> rules, strategy, ops): the rules core only the
standard library and nothing of the strategy built on it, the strategy only the rules core's public
API, service/ops nothing of the layers above it (service.api, service.web, service.app)."""

import ast
import pathlib
import sys

SERVICE = pathlib.Path(__file__).resolve().parents[2] / "service"
RULES = SERVICE / "rules"
STRATEGY = SERVICE / "strategy"
ABOVE = ("service.api", "service.web", "service.app")


def test_rules_core_imports_only_the_standard_library() -> None:
    offenders = []
    for path in sorted(RULES.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top != "__future__" and top not in sys.stdlib_module_names:
                    offenders.append(f"{path.name}: {name}")
    assert offenders == []


def imported_modules(path: pathlib.Path) -> list[str]:
    """The absolute names ``path`` imports (relative imports resolved within the service package)."""
    package = ".".join(path.relative_to(SERVICE.parent).with_suffix("").parts[:-1])
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                module = f"{base}.{node.module}" if node.module else base
                names += [module] if node.module else [f"{base}.{alias.name}" for alias in node.names]
            elif node.module:
                names.append(node.module)
    return names


def test_ops_imports_no_layer_above_it() -> None:
    offenders = [
        f"{path.name}: {name}"
        for path in sorted((SERVICE / "ops").glob("*.py"))
        for name in imported_modules(path)
        if name == "service" or name.startswith(ABOVE)
    ]
    assert offenders == []


def test_rules_core_imports_nothing_of_the_strategy() -> None:
    offenders = [
        f"{path.name}: {name}"
        for path in sorted(RULES.glob("*.py"))
        for name in imported_modules(path)
        if name == "service" or name.startswith("service.strategy")
    ]
    assert offenders == []


def test_strategy_imports_only_the_rules_core_public_api_and_the_standard_library() -> None:
    """Of the service, the strategy imports its own modules and ``service.rules`` itself (what its
    ``__init__`` exports), never a module of the core, nor the layers above (service.api, service.ops,
    service.web, service.app)."""
    modules = sorted(STRATEGY.glob("*.py"))
    assert len(modules) > 1
    offenders = []
    for path in modules:
        for name in imported_modules(path):
            top = name.split(".")[0]
            if name == "service.rules" or name.startswith("service.strategy."):
                continue
            if top == "service" or (top != "__future__" and top not in sys.stdlib_module_names):
                offenders.append(f"{path.name}: {name}")
    assert offenders == []


def test_strategy_uses_no_private_name_of_the_rules_core() -> None:
    import service.rules

    offenders = [
        f"{path.name}: {alias.name}"
        for path in sorted(STRATEGY.glob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module == "service.rules"
        for alias in node.names
        if alias.name not in service.rules.__all__
    ]
    assert offenders == []
