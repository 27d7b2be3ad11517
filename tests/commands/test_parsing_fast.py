"""A line without quotes splits as the character loop would split it."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from commands.parsing import QUOTES, _scan, _tokens

# Spaces of every kind Unicode has (what str.isspace and str.split agree on), letters,
# digits, the characters commands use, and no quote.
unquoted = st.text(
    alphabet=st.characters(blacklist_characters=tuple(QUOTES) + tuple(QUOTES.values()))
    | st.sampled_from([" ", "\t", "\n", "\u00a0", "\u2003", "\u3000", "\x1c", ":", "/", "'"])
)


@given(unquoted)
def test_split_as_the_loop_splits(text: str) -> None:
    assert _tokens(text) == _scan(text)


def test_a_quote_takes_the_loop() -> None:
    assert _tokens('name:"Ana Maria" 3-1') == [("name:Ana Maria", False), ("3-1", False)]
    assert _tokens("«Ana Maria»") == [("Ana Maria", True)]
