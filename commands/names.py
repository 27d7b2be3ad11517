"""Clean a name a person gives (a player, a club, a tournament) before it is stored.

A name is shown in the club's group, in tables and in pictures, so a new one must not
be able to fake a line of the bot, hide characters, reverse the text around it, or pass
for someone else: NFKC, no control, format or bidi characters, one line, single
spaces, at most `MAX_LENGTH` characters. Two names whose Unicode skeletons match
(Cyrillic "а" for Latin "a", a zero-width space, full-width letters) would be read as
one person, so a new player's name is refused beside an existing look-alike.
Names already stored are never rewritten here; views truncate them instead.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Iterable
from functools import cache, lru_cache
from importlib import resources

from tournament import folding
from tournament.model import Refused

MAX_LENGTH = 64
# Skeletons kept per process: a new name is compared with every member's, so each
# /register or /addplayer worked out the whole club's again (~5 us a name: 1 ms for 200
# members), and a ranking import of n names n^2 / 2 of them. A few MB at most.
SKELETONS_KEPT = 32_768
# Cc control, Cf format (zero-width, bidi overrides, soft hyphen), Cs surrogates, Co
# private use, Cn unassigned; Zl/Zp line and paragraph separators.
_DROPPED = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def clean(text: str, *, what: str = "name") -> str:
    """Return `text` as a storable name, or refuse it saying what to type."""
    normal = unicodedata.normalize("NFKC", text)
    kept = []
    for char in normal:
        category = unicodedata.category(char)
        if category in _DROPPED:
            # A line break or a tab between words still separates them.
            kept.append(" " if char in "\t\n\r\v\f\x85\u2028\u2029" else "")
        elif category.startswith("Z"):
            kept.append(" ")
        else:
            kept.append(char)
    name = " ".join("".join(kept).split())
    if not name or not any(unicodedata.category(c)[0] in "LN" for c in name):
        raise Refused("name_required" if not name else "name_needs_letters", what=what)
    if len(name) > MAX_LENGTH:
        raise Refused("name_too_long", what=what, limit=MAX_LENGTH, length=len(name))
    return name


@lru_cache(maxsize=SKELETONS_KEPT)
def skeleton(name: str) -> str:
    """Return what a name looks like: confusable characters mapped to one prototype.

    UTS #39's idea, on the confusables table `confusable_homoglyphs` ships: case
    folded, NFKC, format characters dropped, each character replaced by the smallest
    member of its look-alike class, spaces ignored.
    """
    prototypes, sequences = _prototypes(), _sequences()
    # ł, đ, ø have no accent to drop (no decomposition): as their base letter, "Lukasz
    # Zolc" reads like "Łukasz Żółć", as "Rocio" reads like "Rocío".
    folded = unicodedata.normalize("NFKC", folding.plain(name)).casefold()
    out = []
    for char in unicodedata.normalize("NFD", folded):
        category = unicodedata.category(char)
        if category in _DROPPED or category.startswith("Z") or category == "Mn":
            continue  # invisible, space, or an accent: none tells two names apart at a glance
        prototype = prototypes.get(char, char)
        out.append(sequences.get(prototype, prototype))
    return unicodedata.normalize("NFC", "".join(out))


def look_alike(name: str, others: Iterable[str]) -> str | None:
    """Return the first of `others` that reads like `name` but is not spelled the same."""
    mine = skeleton(name)
    for other in others:
        if skeleton(other) == mine:
            return other
    return None


def clean_new_player(name: str, existing: Iterable[str]) -> str:
    """Clean a new player's name; refuse it beside a look-alike of an existing player."""
    cleaned = clean(name, what="name")
    twin = look_alike(cleaned, existing)
    if twin is not None:
        if folding.same(twin, cleaned):
            raise Refused("name_taken", name=cleaned)
        raise Refused("name_confusable", name=cleaned, other=twin)
    return cleaned


def abbreviates(one: str, other: str) -> bool:
    """Return whether one name is the other with its last word cut to an initial and a
    dot ("Grzegorz B." and "Grzegorz Brzęczyszczykiewicz"), either way round, folded."""
    if not (one.rstrip().endswith(".") or other.rstrip().endswith(".")):
        return False  # asked of every member: most names end in no dot, and are not folded
    mine, theirs = folding.loose(one).split(), folding.loose(other).split()
    if len(mine) != len(theirs) or len(mine) < 2 or mine[:-1] != theirs[:-1]:
        return False
    short, full = sorted((mine[-1], theirs[-1]), key=len)
    initial = short.removesuffix(".")
    return short.endswith(".") and bool(initial) and full.startswith(initial) and full != short


def same_surname(one: str, other: str) -> bool:
    """Return whether two names of two words or more end in the same word, folded, and
    differ before it in a first name of the same initial ("Zbyszek Łęcki" and "Zbigniew
    Łęcki": a nickname). "Gheorghe Stan" beside "Maria Stan" is a relative: not asked."""
    if " " not in one.strip() or " " not in other.strip():
        return False  # asked of every member: most one-word names end here, unfolded
    mine, theirs = folding.loose(one).split(), folding.loose(other).split()
    return mine[-1] == theirs[-1] and mine[:-1] != theirs[:-1] and mine[0][0] == theirs[0][0]


def spelled_alike(one: str, other: str) -> bool:
    """Return whether two names of two words or more are a letter apart, folded (two
    letters in a long name): "Jan Kowalsky" and "Jan Kowalski", "Jan Novak" and "Jan
    Nowak", "Brzenczyszczykiewicz" for "Brzęczyszczykiewicz": a typo, more likely than a
    second person."""
    if " " not in one.strip() or " " not in other.strip():
        return False  # asked of every member: most one-word names end here, unfolded
    mine, theirs = folding.loose(one), folding.loose(other)
    allowed = 1 if min(len(mine), len(theirs)) < LONG_NAME else 2
    return mine != theirs and _letters_apart(mine, theirs, allowed) <= allowed


LONG_NAME = 16  # letters from which a name may carry two typos


def _letters_apart(one: str, other: str, most: int) -> int:
    """Return how many letters to change, add or drop to make `one` into `other` (the
    Levenshtein distance), or `most + 1` once it is surely more than `most`."""
    if abs(len(one) - len(other)) > most:
        return most + 1
    previous = list(range(len(other) + 1))
    for i, letter in enumerate(one, 1):
        current = [i]
        for j, theirs in enumerate(other, 1):
            current.append(
                min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (letter != theirs))
            )
        if min(current) > most:
            return most + 1
        previous = current
    return previous[-1]


def first_name_of(one: str, other: str) -> bool:
    """Return whether `one`, a single word, is the first word of `other`, a name of
    several ("andres" and "Andrés Bello"), folded: a chat account's first name beside a
    member a director entered under the whole name."""
    if " " in one.strip() or " " not in other.strip():
        return False  # asked of every member: most pairs end here, unfolded
    word, words = folding.loose(one).split(), folding.loose(other).split()
    return len(word) == 1 and len(words) > 1 and words[0] == word[0]


def instrumental_of(word: str, name: str) -> bool:
    """Return whether `word` is a Polish instrumental of one of `name`'s words, as a
    player says whom they played with: z Piotrem, z Markiem, z Tomkiem (Anną and Kasią
    fold to Anna and Kasia)."""
    typed = folding.loose(word)
    for part in folding.loose(name).split():
        if typed in (part, part + "em", part + "iem"):
            return True
        if part.endswith("ek") and typed == part[:-2] + "kiem":
            return True
    return False


def shorten(name: str, limit: int) -> str:
    """Return a name cut to `limit` characters with an ellipsis (for table cells)."""
    return name if len(name) <= limit else name[: max(limit - 1, 1)] + "…"


@cache
def _skeletons() -> dict[str, dict[str, str]]:
    """Return the look-alike table (commands/look_alikes.py builds it from the confusables
    table: reading that one took ~60 ms at a process's first new player)."""
    text = resources.files("commands").joinpath("skeletons.json").read_text("utf-8")
    table: dict[str, dict[str, str]] = json.loads(text)
    return table


def _prototypes() -> dict[str, str]:
    """Map each confusable character to its look-alike class's prototype."""
    return _skeletons()["prototypes"]


def _sequences() -> dict[str, str]:
    """Map a letter that reads as several ("m" as "rn", "æ" as "ae") to them, as UTS #39's
    skeleton does, so "Amold" and "Arnold" meet."""
    return _skeletons()["sequences"]
