"""`.env` files read as python-dotenv read them for pydantic-settings (INTERFACE §5).

The expected values are what python-dotenv 1.2 returns for the same text.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.envfile import expand, parse, read


def values(text: str, environ: dict[str, str] | None = None) -> dict[str, str | None]:
    return expand(parse(text), environ or {})


def test_blank_lines_comments_and_the_export_prefix() -> None:
    text = "\n# a comment\n  \nexport CLUBTD_A=1\n   CLUBTD_B = 2  \n#CLUBTD_C=3\n"
    assert values(text) == {"CLUBTD_A": "1", "CLUBTD_B": "2"}


def test_a_comment_after_a_bare_value_needs_a_space_before_it() -> None:
    text = "A=x # note\nB=x#y\nC= # note\nD=#x\nE=\n"
    assert values(text) == {"A": "x", "B": "x#y", "C": "", "D": "#x", "E": ""}


def test_quoted_values_keep_spaces_and_hashes_and_read_escapes() -> None:
    text = (
        "A='  a # b  '  # note\n"
        'B="x\\ty\\n\\"z\\""\n'
        "C='it\\'s'\n"
        "D='no \\n escape'\n"
        'E="two\nlines"\n'
        "'F'=quoted key\n"
    )
    assert values(text) == {
        "A": "  a # b  ",
        "B": 'x\ty\n"z"',
        "C": "it's",
        "D": "no \\n escape",
        "E": "two\nlines",
        "F": "quoted key",
    }


def test_windows_line_ends_and_a_byte_order_mark() -> None:
    assert values("\ufeffA=1\r\nB='2'\r\n") == {"A": "1", "B": "2"}


def test_a_key_without_a_value_is_none() -> None:
    assert values("A\nB=1\n") == {"A": None, "B": "1"}


def test_a_line_that_cannot_be_read_is_skipped(caplog: pytest.LogCaptureFixture) -> None:
    text = 'A=\'never closed\nB="x" trailing\nexport =1\nC=ok\n'
    assert values(text) == {"C": "ok"}
    assert ".env line 1" in caplog.text


def test_variables_come_from_earlier_lines_then_the_environment() -> None:
    text = "A=${HOME}/a\nHOME=/mine\nB=${HOME}/b\nC='${NOPE:-fallback}'\nD=\"${NOPE}\"\n"
    assert values(text, {"HOME": "/root"}) == {
        "A": "/root/a",
        "HOME": "/mine",
        "B": "/mine/b",
        "C": "fallback",
        "D": "",
    }


def test_no_file_is_no_variables(tmp_path: Path) -> None:
    assert read(tmp_path / ".env") == {}
    (tmp_path / ".env").write_text("A=é\n", encoding="utf-8")
    assert read(tmp_path / ".env", {}) == {"A": "é"}
