"""Parse command text: `/name word "two words" key:value key:"quoted value"`.

Phones type curly quotes and Telegram appends `@botname` to commands in groups; both
are accepted. A malformed line raises `ParseError` with a code for the catalog.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

# Straight and typographic double quotes; a single quote stays an apostrophe (O'Brien).
QUOTES = {'"': '"', "“": "”", "„": "”", "”": "”", "«": "»"}
_NO_QUOTE = frozenset(QUOTES)  # a line with none of these splits on spaces alone


class ParseError(ValueError):
    """The text is not a command line; `code` names why."""

    def __init__(self, code: str, **params: str) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


@dataclass(frozen=True, slots=True)
class Parsed:
    name: str
    args: tuple[str, ...] = ()
    options: dict[str, str] = field(default_factory=dict)

    def option(self, *keys: str) -> str | None:
        """Return the first option present among `keys`."""
        for key in keys:
            if key in self.options:
                return self.options[key]
        return None


def copy_parsed(parsed: Parsed) -> Parsed:
    """Return a parsed line with its own options (the dispatcher takes some out)."""
    return Parsed(parsed.name, parsed.args, dict(parsed.options))


_WIDE_SLASH = "\uff0f"  # FULLWIDTH SOLIDUS
_SENTENCE_END = ".,;:!?…"


def parse(text: str) -> Parsed:
    """Parse one command line."""
    stripped = text.strip()
    if not stripped:
        raise ParseError("empty")
    if stripped.startswith(_WIDE_SLASH):
        stripped = "/" + stripped[1:]  # a phone's full-width keyboard: ／confirm
    if not stripped.startswith("/"):
        raise ParseError("not_a_command")
    tokens = _tokens(stripped[1:])
    if not tokens or tokens[0][1]:
        raise ParseError("not_a_command")
    # A phone's sentence ending on the word alone: "/confirm." and "/me!" are commands.
    word = tokens[0][0].split("@", 1)[0].lower().rstrip(_SENTENCE_END)
    name, glued = _command_word(word)
    if not name or not (name.isalnum() or all(c.isalnum() or c == "_" for c in name)):
        raise ParseError("not_a_command")
    args: list[str] = [glued] if glued else []
    # A thumbs-up or a smile after a command says nothing to it: /confirm ✅ is /confirm.
    rest = [t for t in tokens[1:] if t[1] or not _pictograph(t[0])]
    if name in _SPLIT_COMMANDS and rest and rest[0][0].lower() == _SPLIT_COMMANDS[name]:
        # A phone's autocorrect splits the word: "/check in" is /checkin.
        name, rest = name + _SPLIT_COMMANDS[name], rest[1:]
    if rest and not rest[-1][1] and _NUMBERS.match(rest[-1][0]):
        # A sentence's end on a score or a number: "/report 3-1." is /report 3-1.
        rest = [*rest[:-1], (rest[-1][0].rstrip(_SENTENCE_END), False)]
    options: dict[str, str] = {}
    for token, quoted in rest:
        key, colon, value = token.partition(":")
        if colon and not quoted and key and _is_key(key):
            options[key.lower()] = value
        else:
            args.append(token)
    return Parsed(name=name, args=tuple(args), options=options)


def _pictograph(token: str) -> bool:
    """Say whether a word is emoji only: symbols, their modifiers and joiners."""
    return all(unicodedata.category(char) in _PICTOGRAPH for char in token)


_PICTOGRAPH = frozenset({"So", "Sk", "Cf", "Mn", "Me"})
_SPLIT_COMMANDS = {"check": "in"}
# A score or a match number, a sentence's end after it.
_NUMBERS = re.compile(r"^\d[\d\-‐‑–—:/]*[.,;!?…]+$")

_DASHES = "-‐‑–—"
# A command's letters, then (after a dash, or none) a value glued on: /report-3-1.
_GLUED = re.compile(r"^([^\W\d]+(?:[" + _DASHES + r"][^\W\d]+)*)[" + _DASHES + r"]?(\d.*)$")


_WORDS = re.compile(r"^[^\W\d]+(?:[" + _DASHES + r"][^\W\d]+)*$")


def _command_word(word: str) -> tuple[str, str]:
    """Return the command a first word names and a value glued to it: `/check-in` and
    `/Check-In` are /checkin, `/report-3-1` is /report 3-1."""
    if word.isalpha():
        return word, ""  # letters only (most commands): no digit glued on, no dash
    glued = ""
    found = _GLUED.match(word)
    if found:
        word, glued = found.group(1), found.group(2)
    if _WORDS.match(word):
        for dash in _DASHES:
            word = word.replace(dash, "")
    return word, glued


def _is_key(key: str) -> bool:
    """Say whether `key` names an option: `group_size`, or a preset's `groups.size`."""
    if key.isalpha():
        return True  # most keys: `match`, `report`, `club`
    return key[0].isalpha() and key[-1] != "." and all(c.isalnum() or c in "_." for c in key)


def _tokens(text: str) -> list[tuple[str, bool]]:
    """Split on spaces, keeping quoted runs; return (token, wholly quoted)."""
    if _NO_QUOTE.isdisjoint(text):
        # Most lines and every button quote nothing: str.split splits on the same
        # spaces (str.isspace) as the loop below, at C speed.
        return [(token, False) for token in text.split()]
    return _scan(text)


def _scan(text: str) -> list[tuple[str, bool]]:
    """Split on spaces character by character, keeping quoted runs."""
    tokens: list[tuple[str, bool]] = []
    current: list[str] = []
    quoted_only = False
    started = False
    index = 0
    while index < len(text):
        char = text[index]
        if char.isspace():
            if started:
                tokens.append(("".join(current), quoted_only))
                current, quoted_only, started = [], False, False
            index += 1
            continue
        if char in QUOTES:
            inside, end = _quoted(text, index + 1, QUOTES[char])
            quoted_only = not started
            current.append(inside)
            started = True
            index = end + 1
            continue
        current.append(char)
        quoted_only = False
        started = True
        index += 1
    if started:
        tokens.append(("".join(current), quoted_only))
    return tokens


def _quoted(text: str, start: int, closing: str) -> tuple[str, int]:
    """Return a quoted run from `start` and the index of its closing quote; a quote
    escaped with a backslash is part of it: `"O'Neil \\"Big\\" Smith"`."""
    out: list[str] = []
    index = start
    while index < len(text):
        char = text[index]
        if char == "\\" and index + 1 < len(text) and text[index + 1] in (closing, '"', "\\"):
            out.append(text[index + 1])
            index += 2
            continue
        if char == closing:
            return "".join(out), index
        out.append(char)
        index += 1
    raise ParseError("unclosed_quote")
