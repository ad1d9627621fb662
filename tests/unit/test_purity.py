"""The rules core imports only the standard library (STYLE.md §1)."""

import ast
import pathlib
import sys

RULES = pathlib.Path(__file__).resolve().parents[2] / "service" / "rules"


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
