"""The transcript grammar (INTERFACE §3), shared by `--script` files and the console.

    @club name:"HG Backgammon" timezone:America/Caracas language:es
    @director ana
    @clock 2026-01-31 19:30       # club time; never backwards
    @wait 1h30m                   # 90s, 10m, 2h, 1h30m
    alice: /register              # typed in the club's channel
    alice (dm): /me               # written to the bot privately
    ## Narration                  # a heading for the demo; a comment elsewhere

A line whose first character is `#` is a comment; later on a line, a comment starts at
a `#` outside quotes that follows a space and is followed by a space, another `#` or the
end of the line, so `/result #12 3-1` keeps its match number.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta

from commands.arguments import time_zone
from commands.catalog import LANGUAGES
from commands.parsing import QUOTES, Parsed, ParseError, parse
from tournament.model import Refused


class TranscriptError(Exception):
    """A line the runner cannot run; the run stops with exit status 2."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.message = f"line {line}: {message}" if line else message


@dataclass(frozen=True, slots=True)
class ClubStep:
    name: str | None = None
    timezone: str | None = None
    language: str | None = None


@dataclass(frozen=True, slots=True)
class DirectorStep:
    name: str


@dataclass(frozen=True, slots=True)
class ClockStep:
    local: datetime  # naive, in the club's time zone


@dataclass(frozen=True, slots=True)
class WaitStep:
    delta: timedelta


@dataclass(frozen=True, slots=True)
class CommandStep:
    user: str
    private: bool
    text: str


@dataclass(frozen=True, slots=True)
class NarrationStep:
    text: str


Step = ClubStep | DirectorStep | ClockStep | WaitStep | CommandStep | NarrationStep

# "1h30" is 1h30m, as people write it: minutes after hours need no unit.
_DURATION = re.compile(r"^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$|^(\d+)h(\d+)$")
_CLOCK = re.compile(r"^(\d{4}-\d{2}-\d{2})[ T](\d{1,2}):(\d{2})(?::(\d{2}))?$")
_COMMAND = re.compile(
    r"^(?P<user>[^\s:()#@/][^:()]*?)\s*(?P<dm>\(\s*dm\s*\))?\s*:\s*(?P<text>.*)$",
    re.IGNORECASE,  # "alice (DM): /me" as written by hand
)
_CLUB_KEYS = {"name": "name", "timezone": "timezone", "language": "language"}


def parse_script(text: str) -> list[tuple[int, Step]]:
    """Parse a whole transcript; raise TranscriptError at the first malformed line."""
    steps: list[tuple[int, Step]] = []
    for number, line in enumerate(text.splitlines(), 1):
        step = parse_line(line, number)
        if step is not None:
            steps.append((number, step))
    return steps


def parse_line(line: str, number: int) -> Step | None:
    """Parse one line; None for a blank line or a comment."""
    stripped = line.strip()
    if stripped.startswith("##"):
        return NarrationStep(stripped.lstrip("#").strip())
    code = strip_comment(line).strip()
    if not code:
        return None
    if code.startswith("@"):
        return _directive(code, number)
    found = _COMMAND.match(code)
    if found is None:
        raise TranscriptError(
            number, f"not a transcript line: {code!r} (write `alice: /register` or a @directive)"
        )
    text = found.group("text").strip()
    if not text:
        raise TranscriptError(number, f"{found.group('user')} types nothing")
    return CommandStep(found.group("user").strip(), found.group("dm") is not None, text)


def strip_comment(line: str) -> str:
    """Return the line without its `#` comment; a `#` inside quotes is text."""
    if line.lstrip().startswith("#"):
        return ""
    closing: str | None = None
    for index, char in enumerate(line):
        if closing is not None:
            if char == closing:
                closing = None
            continue
        if char in QUOTES:
            closing = QUOTES[char]
            continue
        if char != "#":
            continue
        before_ok = index == 0 or line[index - 1].isspace()
        after = line[index + 1 : index + 2]
        if before_ok and (not after or after.isspace() or after == "#"):
            return line[:index]
    return line


def parse_duration(text: str) -> timedelta:
    """Read 90s, 10m, 2h, 1h30m; raise ValueError otherwise."""
    found = _DURATION.match(text.strip().lower())
    if not text.strip() or found is None:
        raise ValueError(f"not a duration: {text!r} (write 90s, 10m, 2h or 1h30m)")
    hours, mins, secs, bare_hours, bare_mins = (int(g) if g else 0 for g in found.groups())
    hours, mins = hours + bare_hours, mins + bare_mins
    delta = timedelta(hours=hours, minutes=mins, seconds=secs)
    if delta <= timedelta(0):
        raise ValueError(f"not a duration: {text!r} (it must be longer than zero)")
    return delta


def _directive(code: str, number: int) -> Step:
    word, _, rest = code[1:].partition(" ")
    word, rest = word.lower(), rest.strip()
    if word == "club":
        return _club(rest, number)
    if word == "director":
        args = _arguments(rest, number)
        if len(args.args) != 1 or args.options:
            raise TranscriptError(number, "@director takes one name: @director ana")
        return DirectorStep(args.args[0])
    if word == "clock":
        found = _CLOCK.match(rest)
        if found is None:
            raise TranscriptError(
                number, f"@clock takes YYYY-MM-DD HH:MM (club time), not {rest!r}"
            )
        day, hour, minute, second = found.groups()
        try:
            moment = datetime.fromisoformat(f"{day}T{int(hour):02d}:{minute}:{second or '00'}")
        except ValueError as error:
            raise TranscriptError(number, f"@clock {rest}: {error}") from None
        return ClockStep(moment)
    if word == "wait":
        try:
            return WaitStep(parse_duration(rest))
        except ValueError as error:
            raise TranscriptError(number, f"@wait: {error}") from None
    raise TranscriptError(number, f"unknown directive @{word} (@club, @director, @clock, @wait)")


def _club(rest: str, number: int) -> ClubStep:
    args = _arguments(rest, number)
    if args.args:
        raise TranscriptError(
            number,
            f'@club takes key:value options (name:"..." timezone:... language:...), '
            f"not {args.args[0]!r}",
        )
    values: dict[str, str] = {}
    for key, value in args.options.items():
        if key not in _CLUB_KEYS:
            raise TranscriptError(
                number, f"@club has no option {key!r} (name, timezone, language)"
            )
        values[_CLUB_KEYS[key]] = value
    if "name" in values and not values["name"].strip():
        raise TranscriptError(number, "@club name is empty")
    if "timezone" in values:
        # Read as /club reads it: `timezone:Warszawa` is Europe/Warsaw here too.
        try:
            values["timezone"] = time_zone(values["timezone"])
        except Refused as refused:
            close = refused.params.get("suggestion")
            hint = f" (did you mean {close}?)" if close else " (use an IANA name)"
            raise TranscriptError(
                number, f"@club: unknown time zone {values['timezone']!r}{hint}"
            ) from None
    if "language" in values and values["language"] not in LANGUAGES:
        raise TranscriptError(
            number,
            f"@club: unknown language {values['language']!r} (one of {', '.join(LANGUAGES)})",
        )
    name = values.get("name")
    return ClubStep(name.strip() if name else None, values.get("timezone"), values.get("language"))


def _arguments(rest: str, number: int) -> Parsed:
    try:
        return parse("/x " + rest)
    except ParseError as error:
        raise TranscriptError(number, f"cannot read {rest!r}: {error.code}") from None
