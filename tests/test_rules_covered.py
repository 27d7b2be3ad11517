"""Every rule of RULES.md is named by at least one test (the rulebook as code).

A rule counts as covered only where a test says so: in a test's name (`HGV-2.3.1` as
`HGV_2_3_1`) or in a test's docstring. A comment, a string or a helper's name does not
count: they can mention a rule without checking it.
"""

import ast
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def rule_ids() -> list[str]:
    text = (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")
    return re.findall(r"\*\*([A-Z]+(?:-[A-Z0-9.]+)+)\*\*", text)


def said_by_tests(source: str) -> Iterator[tuple[str, str]]:
    """Yield (name, docstring) of every test function and test class in a module."""
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        prefix = "Test" if isinstance(node, ast.ClassDef) else "test"
        if node.name.startswith(prefix):
            yield node.name, ast.get_docstring(node) or ""


def names(rule: str, name: str, docstring: str) -> bool:
    """Say whether a test's name or docstring names `rule` (not a longer rule)."""
    in_name = re.sub(r"[.-]", "_", rule)
    if re.search(rf"(?:^|_){re.escape(in_name)}(?=$|_(?!\d))", name):
        return True
    return bool(re.search(rf"(?<![\w.-]){re.escape(rule)}(?![\w]|[.-]\w)", docstring))


def covered() -> set[str]:
    said = [
        pair
        for path in (ROOT / "tests").rglob("test_*.py")
        if path.name != "test_rules_covered.py"
        for pair in said_by_tests(path.read_text(encoding="utf-8"))
    ]
    return {rule for rule in rule_ids() for name, doc in said if names(rule, name, doc)}


def test_every_rule_id_is_named_by_a_test() -> None:
    ids = rule_ids()
    assert len(ids) >= 40
    assert sorted(set(ids) - covered()) == []


def test_a_comment_or_a_longer_rule_does_not_count() -> None:
    source = '''
def test_lateness():  # HGV-2.3.1
    """Covers HGV-2.3.10 and NAV-II."""
    x = "HGV-5.2"

def helper_HGV_7_1():
    """HGV-7.6"""

def test_NAV_I_and_HGV_2_3():
    """Extra games (HGV-7.2.3)."""
'''
    said = list(said_by_tests(source))
    assert said[0] == ("test_lateness", "Covers HGV-2.3.10 and NAV-II.")
    hits = {
        rule
        for rule in ("HGV-2.3.1", "NAV-II", "NAV-I", "HGV-5.2", "HGV-7.1", "HGV-7.6", "HGV-7.2.3")
        for name, doc in said
        if names(rule, name, doc)
    }
    assert hits == {"NAV-II", "NAV-I", "HGV-7.2.3"}
    assert not names("HGV-2.3", "test_HGV_2_3_1_late", "")
    assert names("HGV-2.3", "test_HGV_2_3_and_more", "")
