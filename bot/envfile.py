"""Read a `.env` file the way python-dotenv does, with the standard library only.

pydantic-settings read `.env` through python-dotenv; the settings (INTERFACE §5) keep
accepting the same files: blank lines, `#` comments (whole lines, or after a value and a
space), an `export ` prefix, bare, 'single' or "double" quoted values (quoted ones may
span lines; escapes: `\\'` in single quotes, `\\n`, `\\t`, `\\"`, ... in double ones) and
`${NAME}` / `${NAME:-default}` from the environment or an earlier line.
"""

from __future__ import annotations

import codecs
import logging
import os
import re
from collections.abc import Mapping
from pathlib import Path

log = logging.getLogger(__name__)

_SPACE = r"[^\S\r\n]"
_NOT_BLANK = re.compile(r"\S")
# One binding: a key (bare or 'quoted'; none on a comment line), optionally `=` and a
# value, an optional comment, the end of its line. Atomic groups: python-dotenv never
# backtracks, so `export =1` and a value that opens a quote it never closes are errors.
_BINDING = re.compile(
    rf"""
    (?>(?:export{_SPACE}+)?)
    (?: '(?P<quoted_key>[^']+)' | (?P<key>(?!')[^=\#\s]+) | (?=\#) )
    (?>{_SPACE}*)
    (?: (?P<equals>(?>={_SPACE}*))
        (?: (?<=\s)(?=\#)
          | '(?P<single>(?:\\.|[^'\\])*)'
          | "(?P<double>(?:\\.|[^"\\])*)"
          | (?!['"])(?P<bare>[^\r\n]*) ) )?
    (?:{_SPACE}*\#[^\r\n]*)?
    {_SPACE}*(?:\r\n|\n|\r|$)
    """,
    re.VERBOSE | re.DOTALL,
)
_END_OF_LINE = re.compile(r"\r\n|\n|\r")
_SINGLE_ESCAPES = re.compile(r"\\[\\']")
_DOUBLE_ESCAPES = re.compile(r"\\[\\'\"abfnrtv]")
_INLINE_COMMENT = re.compile(r"\s+#.*")
_VARIABLE = re.compile(r"\$\{(?P<name>[^}:]*)(?::-(?P<default>[^}]*))?\}")


def parse(text: str) -> list[tuple[str, str | None]]:
    """Return the file's bindings in order; a key without `=` has the value None."""
    text = text.removeprefix("\ufeff")
    found: list[tuple[str, str | None]] = []
    position = 0
    while (start := _NOT_BLANK.search(text, position)) is not None:
        position = start.start()
        match = _BINDING.match(text, position)
        if match is None:
            line = text.count("\n", 0, position) + 1
            log.warning("clubtd: .env line %d cannot be read; it is ignored", line)
            end = _END_OF_LINE.search(text, position)
            position = len(text) if end is None else end.end()
            continue
        position = match.end()
        key = match["quoted_key"] or match["key"]
        if key is not None:
            found.append((key, _value(match)))
    return found


def _value(match: re.Match[str]) -> str | None:
    """Return a binding's value with its quotes, escapes and trailing comment removed."""
    if match["equals"] is None:
        return None
    if match["single"] is not None:
        return _SINGLE_ESCAPES.sub(_unescape, match["single"])
    if match["double"] is not None:
        return _DOUBLE_ESCAPES.sub(_unescape, match["double"])
    return _INLINE_COMMENT.sub("", match["bare"] or "").rstrip()


def _unescape(match: re.Match[str]) -> str:
    return codecs.decode(match[0], "unicode-escape")


def expand(
    bindings: list[tuple[str, str | None]], environ: Mapping[str, str]
) -> dict[str, str | None]:
    """Replace `${NAME}` and `${NAME:-default}`: earlier lines first, then the environment."""
    values: dict[str, str | None] = {}
    for key, value in bindings:
        if value is not None:
            known: dict[str, str | None] = {**environ, **values}

            def look_up(found: re.Match[str], known: dict[str, str | None] = known) -> str:
                return known.get(found["name"], found["default"] or "") or ""

            value = _VARIABLE.sub(look_up, value)
        values[key] = value
    return values


def read(path: Path, environ: Mapping[str, str] | None = None) -> dict[str, str | None]:
    """Return the variables of the `.env` file at `path` (none when there is no file)."""
    if not path.is_file():
        return {}
    bindings = parse(path.read_text(encoding="utf-8"))
    return expand(bindings, os.environ if environ is None else environ)
