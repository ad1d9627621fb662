"""The layers import in one direction: app → api → (rules, strategy, ops), and the app → web; the
rules core imports only the standard library, and no package imports a layer above it."""

import ast
import pathlib
import sys

SERVICE = pathlib.Path(__file__).resolve().parents[2] / "service"
RULES = SERVICE / "rules"
STRATEGY = SERVICE / "strategy"


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


# What each package of service/ may import of the others (itself always). The top-level modules,
# service/app.py and service/contract.py, are the app layer, above everything.
ALLOWED = {
    "rules": set(),
    "strategy": {"rules"},
    "ops": set(),
    "api": {"rules", "strategy", "ops"},
    "web": set(),
}


def _layer(name: str) -> str | None:
    parts = name.split(".")
    if parts[0] != "service":
        return None
    if len(parts) == 1 or parts[1] not in ALLOWED:
        return "app"  # service itself, service.app, service.contract
    return parts[1]


def test_every_package_imports_only_the_layers_below_it() -> None:
    offenders = []
    for package, allowed in ALLOWED.items():
        for path in sorted((SERVICE / package).rglob("*.py")):
            for name in imported_modules(path):
                layer = _layer(name)
                if layer is not None and layer != package and layer not in allowed:
                    offenders.append(f"{path.relative_to(SERVICE)}: {name}")
    assert offenders == []


def test_the_layer_table_knows_every_package() -> None:
    packages = {p.name for p in SERVICE.iterdir() if (p / "__init__.py").exists()}
    assert packages <= set(ALLOWED), packages - set(ALLOWED)


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
