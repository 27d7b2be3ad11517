"""Parsing's shortcuts read a line as the general way reads it."""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st

from commands.parsing import (
    _DASHES,
    _GLUED,
    _WORDS,
    QUOTES,
    _command_word,
    _is_key,
    _scan,
    _tokens,
)

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


def _command_word_by_regex(word: str) -> tuple[str, str]:
    """The command word as read before its letters-only shortcut."""
    glued = ""
    found = _GLUED.match(word)
    if found:
        word, glued = found.group(1), found.group(2)
    if _WORDS.match(word):
        for dash in _DASHES:
            word = word.replace(dash, "")
    return word, glued


@given(st.text() | st.text(alphabet="ab\u00e9\u0131_03\u0663-\u2013."))
@example("report3-1")
@example("check\u2013in")
@example("\u0131\u0663")
def test_a_word_of_letters_reads_as_the_regex_reads_it(word: str) -> None:
    assert _command_word(word) == _command_word_by_regex(word)


@given(st.text(min_size=1) | st.text(alphabet=st.characters(categories=("L",)), min_size=1))
@example("0")
@example("groups.size")
def test_a_key_of_letters_is_a_key_as_before(key: str) -> None:
    slow = key[0].isalpha() and key[-1] != "." and all(c.isalnum() or c in "_." for c in key)
    assert _is_key(key) == slow
