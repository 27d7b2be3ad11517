"""Splitting a long text into messages, as both adapters do for markdown and plain text."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.sending.parts import split_lines


def utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def test_lines_are_packed_and_a_long_line_is_cut_between_words() -> None:
    assert split_lines("ab\ncd\nef", 5) == ["ab\ncd", "ef"]
    assert split_lines("one two three", 8) == ["one two", "three"]
    assert split_lines("x" * 12, 5) == ["xxxxx", "xxxxx", "xx"]  # no space: anywhere
    assert split_lines("aaa\n \nbbb", 3) == ["aaa", "bbb"]  # the blank part between goes
    assert split_lines(" \n ", 100) == []


def test_the_platforms_count_decides_where_to_cut() -> None:
    # An emoji is two UTF-16 units (Telegram's count): five fit in ten, not in five.
    parts = split_lines("\U0001f600" * 10, 5, utf16)
    assert all(utf16(p) <= 5 for p in parts)
    assert "".join(parts) == "\U0001f600" * 10
    assert split_lines("\U0001f600" * 10, 5) == ["\U0001f600" * 5] * 2  # by characters


@settings(max_examples=200, deadline=None)
@given(
    st.text(alphabet=st.sampled_from("ab \n\U0001f600é"), max_size=400),
    st.integers(min_value=2, max_value=40),
)
def test_every_part_fits_and_every_word_arrives_in_order(text: str, limit: int) -> None:
    parts = split_lines(text, limit, utf16)
    assert all(0 < utf16(p) <= limit and p.strip() for p in parts)
    assert "".join("".join(parts).split()) == "".join(text.split())
