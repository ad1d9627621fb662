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


def resolved(path: pathlib.Path, node: ast.ImportFrom) -> str:
    """The absolute name of the module a ``from ... import`` in ``path`` names, a relative one
    (``from ..rules import x``) resolved within the service package."""
    if not node.level:
        return node.module or ""
    package = ".".join(path.relative_to(SERVICE.parent).with_suffix("").parts[:-1])
    base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
    return f"{base}.{node.module}" if node.module else base


def imported_modules(path: pathlib.Path) -> list[str]:
    """The absolute names ``path`` imports (relative imports resolved within the service package)."""
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = resolved(path, node)
            names += [module] if node.module else [f"{module}.{alias.name}" for alias in node.names]
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
    service.web, service.app): relative imports (``from ..rules.captures import x``) are resolved
    first."""
    modules = sorted(STRATEGY.rglob("*.py"))
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


def rules_core_names(path: pathlib.Path) -> list[str]:
    """What ``path`` takes from the rules core: each name it imports from ``service.rules``, absolutely
    or relatively (``from ..rules import x``), and ``<module>`` for the core imported as a module
    (``import service.rules``, ``from .. import rules``), whose names could not be checked."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += ["<module>" for alias in node.names if alias.name.split(".")[:2] == ["service", "rules"]]
        elif isinstance(node, ast.ImportFrom):
            module = resolved(path, node)
            if module == "service.rules":
                found += [alias.name for alias in node.names]
            elif module == "service":
                found += ["<module>" for alias in node.names if alias.name == "rules"]
    return found


def test_strategy_uses_no_private_name_of_the_rules_core() -> None:
    """Every name the strategy imports from the rules core, ``from service.rules import x`` or
    ``from ..rules import x``, is in ``service.rules.__all__``: a module of the core (``captures``)
    or a helper it keeps to itself is not, nor is the core as a module."""
    import service.rules

    public = set(service.rules.__all__) | {"*"}  # a star import takes __all__ alone
    modules = sorted(STRATEGY.rglob("*.py"))
    used = {str(path.relative_to(STRATEGY)): rules_core_names(path) for path in modules}
    assert any(used.values())  # the check sees the imports the strategy makes
    offenders = [f"{name}: {imported}" for name, found in used.items() for imported in found if imported not in public]
    assert offenders == []


def test_no_test_module_imports_another() -> None:
    """Shared builders live in tests/support.py, and fixtures in the conftest modules, which pytest hands
    to the tests that name them: a test module that imports another test module, or a conftest module,
    couples the two and runs the other's module-level set-up (a conftest imported as a module is a second
    copy of it, beside the one pytest loaded)."""
    tests = pathlib.Path(__file__).resolve().parents[1]
    found = []
    for path in sorted(tests.rglob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                module = node.module or ""
                names = [module, *(alias.name for alias in node.names)] if node.level else [module]
                # ``from tests.api import conftest`` names the module among the imported names.
                every = [module, *(f"{module}.{alias.name}" for alias in node.names)]
            elif isinstance(node, ast.Import):
                names = every = [alias.name for alias in node.names]
            else:
                continue
            if any(part.startswith("test_") for name in names for part in name.split(".")):
                found.append(f"{path.relative_to(tests)}:{node.lineno}")
            elif any(part == "conftest" for name in every for part in name.split(".")):
                found.append(f"{path.relative_to(tests)}:{node.lineno} (a conftest)")
    assert found == []
