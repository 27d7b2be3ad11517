"""The interactive console (`clubtd console`): chat on stdin, on the transcript's
virtual clock; it builds on both the console bot and the transcript runner."""

from __future__ import annotations

import asyncio
import getpass
import sys
from collections.abc import Callable
from datetime import datetime
from typing import TextIO

from bot.console import ConsoleBot
from bot.grammar import (
    ClockStep,
    ClubStep,
    CommandStep,
    DirectorStep,
    NarrationStep,
    TranscriptError,
    WaitStep,
    parse_line,
)
from bot.transcript import TranscriptRunner


async def interactive(
    bot: ConsoleBot,
    clock_now: Callable[[], datetime],
    *,
    as_name: str | None,
    real_clock: bool = False,
    stdin: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Chat on stdin: sweep before each line, print what follows.

    A database a transcript wrote keeps its virtual clock: the console continues on it
    (`@wait 10m`, `@clock ...` move it on) instead of jumping to the real time and
    applying hours of penalties at once; a new database's virtual clock starts at the
    real time; `real_clock` runs on the real time itself. The transcript grammar
    applies; a bare `/cmd` line is typed by `as_name`, and an empty line just shows what
    fell due meanwhile.
    """
    stdin = stdin or sys.stdin
    stderr = stderr or sys.stderr
    me = as_name or getpass.getuser()
    stored = await bot.stored_clock()
    runner: TranscriptRunner | None = None
    if not real_clock:
        # INTERFACE §3: a new database's clock starts at the real time, and @wait and
        # @clock move it on from there as on any other.
        runner = TranscriptRunner(bot, real_now=clock_now())
        await runner.open()
        now = runner.now
        shown = bot.stamp_full(runner.now)
        where = (
            "where the last run on this database stopped"
            if stored is not None
            else "the real time, on this new database"
        )
        print(
            f"Virtual clock: {shown} (club time), {where}. Move it with @wait 10m or "
            "@clock YYYY-MM-DD HH:MM; --real-clock runs on the real time instead.",
            file=stderr,
        )
    else:
        now = clock_now()
        await bot.ensure_club(now)
        await _keep_clock(bot, now)
        await bot.sweep(now)
        print(f"Real clock: {bot.stamp_full(now)} (club time).", file=stderr)
    print(
        f"You type as {me}: a bare /command is yours. Write `alice: /register` to type as "
        "alice, and `@director alice` to make alice a director. /help lists the commands.",
        file=stderr,
    )
    prompt = stdin.isatty()
    while True:
        if prompt:
            print(f"{me}> ", end="", flush=True)
        line = await asyncio.to_thread(stdin.readline)
        if not line:
            return 0
        stripped = line.strip()
        if runner is None:
            now = clock_now()
            await _keep_clock(bot, now)
            await bot.catch_up(now)
        if not stripped:
            continue
        try:
            step = (
                CommandStep(user=me, private=False, text=stripped)
                if stripped.startswith("/")
                else parse_line(line, 0)
            )
        except TranscriptError as error:
            print(error.message, file=stderr)
            continue
        if runner is not None:
            try:
                if step is not None:
                    await runner.step(0, step)
            except TranscriptError as error:
                print(error.message.removeprefix("line 0: "), file=stderr)
            continue
        match step:
            case CommandStep(user=user, private=private, text=text):
                await bot.command(user, text, private=private, now=now)
            case ClubStep(name=name, timezone=timezone, language=language):
                await bot.update_club(now, name=name, timezone=timezone, language=language)
            case DirectorStep(name=name):
                await bot.add_director(now, name)
            case ClockStep() | WaitStep():
                print(
                    "This console runs on the real clock: @clock and @wait work on a "
                    "database a transcript wrote, without --real-clock.",
                    file=stderr,
                )
            case NarrationStep() | None:
                pass


async def _keep_clock(bot: ConsoleBot, now: datetime) -> None:
    """Keep the stored console clock from lagging behind real time used here."""
    stored = await bot.stored_clock()
    if stored is None or stored < now:
        await bot.store_clock(now)
