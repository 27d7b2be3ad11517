"""The core imports nothing but the standard library and itself."""

import ast
import sys
from pathlib import Path

CORE = Path(__file__).resolve().parents[2] / "tournament"


def test_tournament_imports_only_the_standard_library() -> None:
    foreign: list[str] = []
    for path in CORE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                if top not in sys.stdlib_module_names and top != "tournament":
                    foreign.append(f"{path.name}: {name}")
    assert foreign == []
