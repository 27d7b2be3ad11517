"""One harness for the three platforms: play a transcript (INTERFACE §3) through the
console, the Telegram emulator or the Discord stand-in, then read back the club's JSON
export (INTERFACE §4) and what each platform showed, normalised to compare.

A platform is a `Driver`: it takes the transcript's steps one at a time (a command by
someone, in the club's chat or privately; the club's settings; a director) on a virtual
clock, and `play` moves that clock deadline by deadline exactly as the console's runner
does, so due work happens at the same virtual moments everywhere. Each driver returns
from a step only when the platform has handled it and sent what it caused: the next
step never races the last one, and nothing is waited for with a sleep.

The console driver is here; the Telegram and Discord ones are in tests/harness_chats.py.
`normalise` and `comparable` are the one place that says what differs legitimately
between platforms (markup, mentions, buttons, pictures, ids); adjust them there.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol
from zoneinfo import ZoneInfo

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.console import ConsoleBot
from bot.console_chat import CLUB_CHAT, PLATFORM
from bot.discord_adapter import options
from bot.grammar import ClockStep, ClubStep, CommandStep, DirectorStep, WaitStep, parse_script
from bot.sending.pacing import Window
from bot.throttle import Rate
from commands.config import CommandConfig
from commands.export import export_club, find_club
from commands.registry import BY_NAME
from commands.rendering import Renderer
from commands.replies import from_payload
from storage import tables as t
from storage.outbox import OutboxStore
from storage.unit_of_work import unit_of_work_factory


@dataclass(frozen=True, slots=True)
class Heard:
    """One message a platform showed: to the club's chat (`to == "club"`) or privately
    to a person (`to == "dm:alice"`), its text normalised."""

    to: str
    text: str


class Driver(Protocol):
    """A platform the transcript is played through."""

    platform: str  # the outbox's platform
    club_chat: str  # the club's chat on it
    engine: AsyncEngine

    async def club(
        self, now: datetime, *, name: str | None, timezone: str | None, language: str | None
    ) -> None:
        """Create or change the club (the `@club` directive)."""

    async def director(self, now: datetime, name: str) -> None:
        """Make `name` a director of the club (the `@director` directive)."""

    async def say(self, now: datetime, user: str, text: str, *, private: bool) -> None:
        """`user` types `text`; return once it is handled and its messages are out."""

    async def sweep(self, now: datetime) -> datetime | None:
        """Apply what is due by `now`, send it; return the next deadline."""

    async def heard_now(self) -> list[Heard]:
        """Everything the platform showed so far (the club's set-up aside), in order."""


@dataclass
class Night:
    """Where a played transcript left the virtual clock, for the next one."""

    clock: datetime | None = None
    zone: ZoneInfo = field(default_factory=lambda: ZoneInfo("UTC"))


async def play(driver: Driver, script: str, night: Night | None = None) -> Night:
    """Play a transcript through a driver on a virtual clock, deadline by deadline (as
    `bot.transcript.TranscriptRunner` does); go on from `night` when given."""
    night = night or Night()

    async def advance(target: datetime) -> datetime:
        now = night.clock or target
        deadline = await driver.sweep(now)
        while deadline is not None and deadline <= target:
            now = max(deadline, now)
            deadline = await driver.sweep(now)
            if deadline is not None and deadline <= now:
                break  # nothing more can fall due at this moment
        return max(target, now)

    for _, step in parse_script(script):
        match step:
            case ClubStep(name=name, timezone=timezone, language=language):
                night.zone = ZoneInfo(timezone) if timezone else night.zone
                await driver.club(
                    night.clock or EPOCH, name=name, timezone=timezone, language=language
                )
            case DirectorStep(name=name):
                await driver.director(night.clock or EPOCH, name)
            case ClockStep(local=local):
                target = local.replace(tzinfo=night.zone).astimezone(UTC)
                night.clock = target if night.clock is None else await advance(target)
            case WaitStep(delta=delta):
                assert night.clock is not None, "@wait before the first @clock"
                night.clock = await advance(night.clock + delta)
            case CommandStep(user=user, private=private, text=text):
                assert night.clock is not None, "a command before the first @clock"
                night.clock = await advance(night.clock)
                await driver.say(night.clock, user, text, private=private)
    return night


async def export(engine: AsyncEngine) -> dict[str, Any]:
    """Return the club's INTERFACE §4 export (the database has one club)."""
    uow = unit_of_work_factory(engine)()
    async with uow:
        return await export_club(uow, await find_club(uow, None, console=(PLATFORM, CLUB_CHAT)))


async def announcements(
    engine: AsyncEngine, platform: str, club_chat: str, timezone: str
) -> list[str]:
    """The club's announcements on one platform (its outbox rows to the club's chat),
    rendered as plain text and normalised: what the club was told, platform aside."""
    query = (
        select(t.outbox.c.payload, t.outbox.c.status)
        .where(t.outbox.c.platform == platform, t.outbox.c.chat == club_chat)
        .order_by(t.outbox.c.id)
    )
    async with engine.connect() as conn:
        rows = list(await conn.execute(query))
    out = []
    for payload, status in rows:
        if status == "superseded":
            continue  # an older version of a live message, edited since
        reply = from_payload(payload)
        text = Renderer(str(payload.get("language") or "en"), timezone, "plain").reply(reply).text
        out.append(normalise(text))
    return out


# -- what legitimately differs between platforms: one place --

_TAG = re.compile(r"<[^>]+>")
_MENTION = re.compile(r"<@!?(\d+)>")
_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|~>])")
_MARKUP = re.compile(r"(\*\*|__|~~|`)")
_BUTTONS = re.compile(r"^\[[^\]]+: /[^\]]*\](?: \[[^\]]+: /[^\]]*\])*$")
_PICTURE = re.compile(r"^\[picture: [^\]]+\]$")
_SPACE = re.compile(r"[ \t\u00a0]+")
_SEED = re.compile(r"\b(seed|fingerprint) [0-9a-f]{4,}\b", re.IGNORECASE)  # a new lot each draw


_SLASH = re.compile(r"`(/[^`]+)`")
_PAIR = re.compile(r" (?=\[?[a-z_]+:)")


def typed_form(slash: str) -> str:
    """Return a hint in Discord's slash form (`/result match:1 score:3-1`) as it is typed
    in text (`/result 1 3-1`), `[...]` kept around what may be left out."""
    head, *pairs = _PAIR.split(slash)
    words = head.removeprefix("/").split()
    spec = BY_NAME.get(words[0]) if words else None
    if spec is None:
        return slash
    shape = options.command(spec)
    if len(words) > 1:
        shape = next((sub for sub in shape.subcommands if sub.name == words[1]), shape)
    values: dict[str, object] = {}
    optional: list[str] = []
    for pair in pairs:
        key, _, value = pair.strip("[]").partition(":")
        if pair.startswith("["):
            found = next((o for o in shape.options if o.name == key), None)
            optional.append(f"[{value}]" if found and found.positional else f"[{key}:{value}]")
        else:
            values[key] = True if value == "True" else value
    return " ".join([options.command_line(shape, values), *optional])


def normalise(text: str, names: dict[str, str] | None = None) -> str:
    """Return a message's text without its platform's rendering: HTML tags and entities
    (Telegram), markdown and its escapes (Discord), hints in their typed form, mentions
    shown as the person's name, the console's button and picture lines, and spacing."""
    names = names or {}
    text = _SLASH.sub(lambda m: typed_form(m.group(1)), text)
    text = _MENTION.sub(lambda m: names.get(m.group(1), m.group(0)), text)
    text = html.unescape(_TAG.sub("", text))
    text = _MARKUP.sub("", _ESCAPE.sub(r"\1", text))
    text = _SEED.sub(r"\1 …", text.replace("@\u200b", "@"))
    lines = [_SPACE.sub(" ", line).strip() for line in text.splitlines()]
    kept = [line for line in lines if line and not _BUTTONS.match(line)]
    return "\n".join(line for line in kept if not _PICTURE.match(line))


VOLATILE = frozenset({"id", "url"})


def comparable(data: Any) -> Any:
    """Return an export without what legitimately differs between platforms' databases
    (row ids, links); everything else, times included, must be equal."""
    if isinstance(data, dict):
        return {k: comparable(v) for k, v in data.items() if k not in VOLATILE}
    if isinstance(data, list):
        return [comparable(v) for v in data]
    return data


# -- the drivers --

NO_THROTTLE = Rate(burst=100_000, per_command=0.001)
NO_WINDOW = Window(per_chat=100_000, seconds=1.0, per_second=100_000)
EPOCH = datetime(2000, 1, 1, tzinfo=UTC)  # a virtual clock's start, before any transcript


class _Lines:
    """The console's Output, kept as printed."""

    def __init__(self) -> None:
        self.printed: list[str] = []

    def message(self, text: str) -> None:
        self.printed.append(text)

    def typed(self, line: str) -> None:
        pass

    def narration(self, text: str) -> None:
        pass


_CONSOLE_LINE = re.compile(r"^\[\d\d:\d\d\] ([#@])([^:]+): ?(.*)$", re.DOTALL)


class _MarkedPictures(ConsoleBot):
    """The console, a picture shown as its marker line only: the chats show a picture
    as an image (its live message edited in place), which no text compares with."""

    def _picture(self, picture: Any, club: Any, renderer: Any) -> str:
        return f"[picture: {picture.name}.png]"


class ConsoleDriver:
    """The console (`clubtd console --script`): the reference the others must match."""

    platform = "console"
    club_chat = CLUB_CHAT

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.lines = _Lines()
        self.bot = _MarkedPictures(
            uow_factory=unit_of_work_factory(engine),
            config=CommandConfig(),
            outbox=OutboxStore(engine),
            output=self.lines,
        )

    async def club(
        self, now: datetime, *, name: str | None, timezone: str | None, language: str | None
    ) -> None:
        await self.bot.update_club(now, name=name, timezone=timezone, language=language)

    async def director(self, now: datetime, name: str) -> None:
        await self.bot.add_director(now, name)

    async def say(self, now: datetime, user: str, text: str, *, private: bool) -> None:
        await self.bot.command(user, text, private=private, now=now)

    async def sweep(self, now: datetime) -> datetime | None:
        return await self.bot.sweep(now)

    async def heard_now(self) -> list[Heard]:
        out = []
        for printed in self.lines.printed:
            found = _CONSOLE_LINE.match(printed)
            assert found is not None, printed
            mark, place, body = found.groups()
            body = "\n".join(line.removeprefix("  ") for line in body.split("\n"))
            text = normalise(body)
            if text:  # a picture alone
                out.append(Heard("club" if mark == "#" else f"dm:{place}", text))
        return out
