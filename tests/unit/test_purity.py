"""The layers import in one direction: the rules core only the standard library, service/ops
nothing of the layers above it (service.api, service.web, service.app)."""

import ast
import pathlib
import sys

SERVICE = pathlib.Path(__file__).resolve().parents[2] / "service"
RULES = SERVICE / "rules"


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
    above = ("service.api", "service.web", "service.app")
    offenders = [
        f"{path.name}: {name}"
        for path in sorted((SERVICE / "ops").glob("*.py"))
        for name in imported_modules(path)
        if name == "service" or name.startswith(above)
    ]
    assert offenders == []
