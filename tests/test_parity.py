"""Parity: the same night played through the console, the Telegram emulator and the
Discord stand-in ends in the same export and tells the club the same things.

Six players register, confirm (one privately) and check in; the draw is the lot of a
given seed; reports are accepted, one is disputed and settled by the director; the
knockout (a play-in round, semi-finals, a Last Chance final) ends with a champion.
What may differ between platforms (ids, markup, mentions, buttons, pictures) is said
once, in tests/harness.py.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest_asyncio

from bot.clock import VirtualClock
from storage.engine import make_engine
from tests.discord.inprocess import running
from tests.harness import (
    EPOCH,
    NO_THROTTLE,
    NO_WINDOW,
    ConsoleDriver,
    Driver,
    Heard,
    announcements,
    comparable,
    export,
    play,
)
from tests.harness_chats import DiscordDriver, TelegramDriver
from tests.telegram import emulator as emu

SETUP = (
    "@clock 2026-03-06 18:00\n"
    '@club name:"Parity Club" timezone:America/Caracas\n'
    "@director ana\n"
    'ana: /tournament new name:"March Cup" start:"2026-03-06 20:00" approval:no seed:4711 '
    "knockout_length:5\n"
)

# Seed 4711 draws p5 p1 p4 and p3 p6 p2; six go through: a play-in round (to 5), semi-finals
# and a final (to 7), and a Last Chance final (to 5) of the play-in losers.
NIGHT = """\
p1: /register
p2: /register
p3: /register
p4: /register
p5: /register
p6: /register
p1: /confirm
p2: /confirm
p3 (dm): /confirm
p4: /confirm
@clock 2026-03-06 19:30
p1: /checkin
p2: /checkin
p3: /checkin
p4: /checkin
p5: /checkin
p6: /checkin
ana: /draw
@clock 2026-03-06 20:35
p5: /report 3-1
p1: /accept
p3: /report 3-1
p6: /dispute
ana: /result p3 3-2 p6 reason:"scoresheet"
ana: /result p5 3-1 p4
ana: /result p3 3-0 p2
ana: /result p1 3-2 p4
ana: /result p6 3-1 p2
@wait 10m
p6: /report 5-2
p4: /accept
ana: /result p1 5-3 p2
@wait 30m
p5: /report 7-4
p6: /accept
ana: /result p3 7-1 p1
ana: /result p4 5-2 p2
@wait 20m
p5: /report 7-3
p3: /accept
p1 (dm): /me
"""


Night = tuple[dict[str, Any], list[Heard], list[str]]  # the export, what was shown, told


async def _night(driver: Driver) -> Night:
    await play(driver, SETUP + NIGHT)
    heard = await driver.heard_now()
    exported = await export(driver.engine)
    zone = exported["club"]["timezone"]
    return (
        exported,
        heard,
        await announcements(driver.engine, driver.platform, driver.club_chat, zone),
    )


@pytest_asyncio.fixture
async def console(sqlite_urls: Callable[[str], str]) -> AsyncIterator[Night]:
    engine = make_engine(sqlite_urls("console"))
    try:
        yield await _night(ConsoleDriver(engine))
    finally:
        await engine.dispose()


async def test_the_night_on_the_console_is_the_reference(console: Night) -> None:
    exported, heard, told = console
    (cup,) = exported["tournaments"]
    assert cup["status"] == "finished" and cup["placements"][0]["name"] == "p5"
    assert [m["status"] for m in cup["matches"]] == ["finished"] * 12
    assert "Match 2 (p3 v p6) is disputed by p6" in "\n".join(h.text for h in heard)
    assert any(text.startswith("March Cup is over. Champion: p5!") for text in told)


async def test_telegram_ends_the_same_as_the_console(
    console: Night, emulator: emu.Emulator, sqlite_urls: Callable[[str], str]
) -> None:
    engine = make_engine(sqlite_urls("telegram"))
    telegram = TelegramDriver(engine, emulator, "5151:PARITY")
    await telegram.open()
    try:
        got = await _night(telegram)
    finally:
        await telegram.close()
        await engine.dispose()
    _same(got, console)


async def test_discord_ends_the_same_as_the_console(
    console: Night, sqlite_urls: Callable[[str], str], tmp_path: Path
) -> None:
    async with running(
        tmp_path,
        clock=VirtualClock(EPOCH),
        database_url=sqlite_urls("discord"),
        throttle=NO_THROTTLE,
        window=NO_WINDOW,
    ) as adapter:
        got = await _night(DiscordDriver(adapter))
    _same(got, console, answers_private=True)


# Rows of the tables (groups, schedule, bracket, places) and their headings: the chats keep
# one live board per tournament, edited in place, where the console prints every version.
_TABLE = re.compile(
    r"^(\d|# |No\. |Nr |Place |Group \S+$|[^:]+: (matches|knockout|final places.*)$)"
)


# The chats' registration board (issue 20): the opening post, then who is entered; the
# console prints each entry's own line instead. The group board's matches being played
# likewise (the console prints the round calls as they fall due).
_ENTRIES = re.compile(r"\n(?=Entries \(\d+\)\n)")
_PLAYING = re.compile(r"^Being played:\n(?:Table \d+: .*\n?)*", re.MULTILINE)


def _said(texts: list[str]) -> Counter[str]:
    """Return what was said, line by line, tables aside: the chats gather one command's
    news into one post (issue 20's quiet channel), the console prints one line per event."""
    return Counter(
        line
        for text in texts
        for line in _PLAYING.sub("", _ENTRIES.split(text)[0]).splitlines()
        if line and not _TABLE.match(line)
    )


def _same(got: Night, expected: Night, *, answers_private: bool = False) -> None:
    """The same export, the same things told to the club, and everyone was shown the same
    messages up to rendering and gathering (compared as multisets: the platforms' senders
    may interleave the club's news and private messages differently)."""
    assert comparable(got[0]) == comparable(expected[0])
    # Each edit of the chats' live board is an outbox row of its own: what the club was
    # told is compared as a set; what each person saw (below) line by line, counted.
    assert set(_said(got[2])) == set(_said(expected[2]))
    if answers_private:
        # Discord answers routine commands ephemerally, to the asker alone (issue 20),
        # where the console answers in the club's chat: the same words, another audience,
        # and the club's news of that command is posted besides (so: as sets).
        assert set(_said([h.text for h in got[1]])) == set(_said([h.text for h in expected[1]]))
        return
    heard = {to: [h.text for h in got[1] if h.to == to] for to in {h.to for h in got[1]}}
    wanted = {
        to: [h.text for h in expected[1] if h.to == to] for to in {h.to for h in expected[1]}
    }
    assert heard.keys() == wanted.keys()
    for to, texts in wanted.items():
        assert _said(heard[to]) == _said(texts), to
