"""How names compare: the one place that folds a name or a typed word.

Two folds, on purpose, and no other: `key` is a name's identity in the database
(case and spacing do not matter, accents do: "Rocío" and "Rocio" may be two people),
`loose` is how people type in a chat (accents, strokes, quotes and a leading @ do not
matter either). Resolving what someone typed uses `loose`; storing and looking up a
name exactly uses `key`.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

# Letters that are not a base letter plus an accent, so NFKD keeps them: typed without
# the stroke they are the plain letter ("Lucja" for "Łucja", "Dorte" for "Dørte").
_PLAIN = str.maketrans(
    {"ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ø": "o", "Ø": "O", "ı": "i", "ħ": "h", "Ħ": "H"}
)
_QUOTES = "\"'“”„«»"
# Folds kept: a typed name is matched against every member's name folded (a /register
# folded the whole club's twice, ~8 us a name), and the club's names are the same from
# one command to the next. Only texts as long as a name may be (64 characters) are kept:
# anyone can type a long line, and 32,768 of them must not sit in memory.
_FOLDS_KEPT = 32_768
_KEPT_UP_TO = 64


def plain(text: str) -> str:
    """Return text with the letters no decomposition takes apart (ł, đ, ø, ı, ħ) as their
    base letter, as accents come off: "Łukasz" reads as "Lukasz"."""
    return text.translate(_PLAIN)


def key(name: str) -> str:
    """Return a name as the database compares it: case folded, single spaces, no ends."""
    return " ".join(name.split()).casefold()


def loose(text: str) -> str:
    """Return text as chat matching compares it: no accents, case folded, single spaces,
    no surrounding quotes, no leading @."""
    return _kept_fold(text) if len(text) <= _KEPT_UP_TO else _fold(text)


def _fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.translate(_PLAIN))
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    cleaned = bare.strip().strip(_QUOTES).lstrip("@")
    return " ".join(cleaned.split()).casefold()


_kept_fold = lru_cache(maxsize=_FOLDS_KEPT)(_fold)


def same(a: str, b: str) -> bool:
    """Return whether two names are one name as the database compares them."""
    return key(a) == key(b)
