"""Replay a transcript on a virtual clock (`clubtd console --script`, INTERFACE §3).

Due work runs as it would have on the night: before each command and while the clock
moves on, the clock steps to each deadline in turn, everything due then is applied with
that time, and its messages are printed; only then does the clock reach its target.
The clock is kept in the database after every step, so the next transcript on the same
database starts where this one stopped and catches up on what fell due in between.
"""

from __future__ import annotations

import asyncio
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO
from zoneinfo import ZoneInfo

from bot.clock import VirtualClock
from bot.console import ConsoleBot
from bot.grammar import (
    ClockStep,
    ClubStep,
    CommandStep,
    DirectorStep,
    NarrationStep,
    Step,
    TranscriptError,
    WaitStep,
    parse_script,
)


class TranscriptRunner:
    """Run transcript steps against one console session on a virtual clock."""

    def __init__(self, bot: ConsoleBot, *, real_now: datetime | None = None) -> None:
        self.bot = bot
        self._real_now = real_now
        self.clock: VirtualClock | None = None
        # On a new database the clock starts at the real time only as a default: until
        # something happens on it, the first @clock may set any time, earlier too.
        self.anchored = True

    async def open(self) -> VirtualClock:
        """Start the clock where the last transcript stopped (real time on a new
        database), make sure the console has a club, and catch up."""
        stored = await self.bot.stored_clock()
        if stored is None:
            real = self._real_now or datetime.now(UTC)
            stored = real.replace(second=0, microsecond=0)
            self.anchored = False
        self.clock = VirtualClock(stored)
        await self.bot.ensure_club(self.clock.now())
        await self.bot.store_clock(self.clock.now())
        await self.advance(self.clock.now())
        return self.clock

    @property
    def now(self) -> datetime:
        if self.clock is None:
            raise RuntimeError("open the runner first")
        return self.clock.now()

    async def run(self, steps: list[tuple[int, Step]]) -> None:
        """Run the steps in order; raise TranscriptError on a step that cannot run."""
        if self.clock is None:
            await self.open()
        for number, step in steps:
            await self.step(number, step)

    async def step(self, number: int, step: Step) -> None:
        bot = self.bot
        match step:
            case NarrationStep(text=text):
                bot.output.narration(text)
            case ClubStep(name=name, timezone=timezone, language=language):
                await bot.update_club(self.now, name=name, timezone=timezone, language=language)
            case DirectorStep(name=name):
                await bot.add_director(self.now, name)
            case ClockStep(local=local):
                target = local.replace(tzinfo=ZoneInfo(bot.club.timezone)).astimezone(UTC)
                if not self.anchored:
                    self.clock = VirtualClock(target)
                    self.anchored = True
                    await bot.store_clock(target)
                elif target < self.now:
                    shown = self.now.astimezone(ZoneInfo(bot.club.timezone))
                    raise TranscriptError(
                        number,
                        f"@clock {local:%Y-%m-%d %H:%M} is before the clock "
                        f"({shown:%Y-%m-%d %H:%M}): the clock never goes back",
                    )
                await self.advance(target)
            case WaitStep(delta=delta):
                self.anchored = True
                await self.advance(self.now + delta)
            case CommandStep(user=user, private=private, text=text):
                self.anchored = True
                await self.advance(self.now)
                await bot.command(user, text, private=private, now=self.now)

    async def advance(self, target: datetime) -> None:
        """Apply due work deadline by deadline up to `target`, then set the clock there."""
        assert self.clock is not None
        deadline = await self.bot.catch_up(self.now)
        while deadline is not None and deadline <= target:
            at = max(deadline, self.now)
            self.clock.advance_to(at)
            await self.bot.store_clock(at)
            deadline = await self.bot.sweep(at)
            if deadline is not None and deadline <= at:
                break  # nothing more can fall due at this moment
        if target > self.now:
            self.clock.advance_to(target)
            await self.bot.store_clock(target)


async def run_script(
    bot: ConsoleBot,
    text: str,
    *,
    stderr: TextIO | None = None,
    pictures: Path | None = None,
    real_now: datetime | None = None,
) -> int:
    """Run a transcript; return the exit status (2 for a malformed line)."""
    stderr = stderr or sys.stderr
    try:
        steps = parse_script(text)
    except TranscriptError as error:
        print(f"clubtd: {error.message}", file=stderr)
        return 2
    if pictures is not None:
        await asyncio.to_thread(pictures.mkdir, parents=True, exist_ok=True)
        bot.pictures = pictures
    runner = TranscriptRunner(bot, real_now=real_now)
    try:
        await runner.run(steps)
    except TranscriptError as error:
        print(f"clubtd: {error.message}", file=stderr)
        return 2
    return 0
