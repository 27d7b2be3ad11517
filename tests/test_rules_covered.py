"""Every rule of RULES.md is named by at least one test (the rulebook as code)."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def rule_ids() -> list[str]:
    text = (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")
    return re.findall(r"\*\*([A-Z]+(?:-[A-Z0-9.]+)+)\*\*", text)


def test_every_rule_id_is_named_by_a_test() -> None:
    tests = "\n".join(
        p.read_text(encoding="utf-8")
        for p in (ROOT / "tests").rglob("test_*.py")
        if p.name != "test_rules_covered.py"
    )
    ids = rule_ids()
    assert len(ids) >= 40
    missing = [i for i in ids if re.sub(r"[.-]", "_", i) not in tests]
    assert missing == []
