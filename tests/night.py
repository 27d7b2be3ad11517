"""A 16-player night played through a chat platform, counting what the club's channel sees.

The driver is platform-neutral: a `Table` types commands, presses buttons, lets the
outbox drain and reads the tournament; `play_night` runs registration, confirmation,
check-in, the draw and every match (the white player reports, the black one presses
Accept) until the tournament is finished. Each step's public posts and private messages
are counted (edits of an earlier message are not posts), so a test can assert the quiet
channel and a report can print the numbers.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Protocol

from tournament.model import TournamentStatus
from tournament.state import TournamentState

PLAYERS = 16
REMINDER = timedelta(minutes=10)


@dataclass
class Count:
    """Messages one step caused."""

    step: str
    public: int = 0
    private: int = 0
    edits: int = 0


@dataclass
class Tally:
    """Every step's count, and the totals."""

    steps: list[Count] = field(default_factory=list)

    @property
    def public(self) -> int:
        return sum(c.public for c in self.steps)

    @property
    def private(self) -> int:
        return sum(c.private for c in self.steps)

    @property
    def edits(self) -> int:
        return sum(c.edits for c in self.steps)

    def by_kind(self) -> dict[str, tuple[int, int, int]]:
        """Sum the counts by the step's first word (register, report, ...)."""
        out: dict[str, tuple[int, int, int]] = {}
        for c in self.steps:
            kind = c.step.split()[0]
            p, q, e = out.get(kind, (0, 0, 0))
            out[kind] = (p + c.public, q + c.private, e + c.edits)
        return out

    def noisy(self) -> list[Count]:
        """The steps that posted more than once in the club's channel."""
        return [c for c in self.steps if c.public > 1]

    def summary(self) -> str:
        kinds = ", ".join(f"{k} {p}/{q}/{e}" for k, (p, q, e) in self.by_kind().items())
        return (
            f"public {self.public}, private {self.private}, edits {self.edits} "
            f"(public/private/edits by step: {kinds})"
        )


def called_matches(text: str) -> list[int]:
    """Return the matches a post calls ("Table 1: ana (white) v bob, match 1.", "Final,
    match 30: ana (white) v bob at 22:00."): their players are the ones to ping."""
    return [
        int(found.group(1))
        for line in text.splitlines()
        if "(white) v" in line and (found := re.search(r"match (\d+)", line))
    ]


_SPAN = re.compile(r"`(/[^`]+)`|<code>(/[^<]+)</code>")
_BARE = re.compile(r"(?<![\w/:<>.])/([a-z][a-z_]*)\b")


def hints(text: str) -> list[str]:
    """Return the commands a message tells its reader to type: each code span that is a
    command line (`/result match:1 score:3-1`), and each bare /command elsewhere."""
    spans = [a or b for a, b in _SPAN.findall(text)]
    rest = _SPAN.sub(" ", text)
    return spans + [f"/{name}" for name in _BARE.findall(rest)]


class Table(Protocol):
    """What the night needs of a platform."""

    players: list[str]  # the players' account ids, in registration order
    director: str

    async def type(self, who: str, text: str) -> None:
        """`who` types `text` in the club's group (or runs the slash command)."""

    async def press(self, who: str, label: str) -> bool:
        """`who` presses the newest button `label` meant for them; False if none."""

    async def settle(self) -> None:
        """Let the outbox and every pending answer go out."""

    async def state(self) -> TournamentState:
        """The tournament being played."""

    async def account(self, player_id: int) -> str:
        """The platform account id of a player."""

    def counts(self) -> tuple[int, int, int]:
        """Public posts, private messages and edits so far."""

    def set_clock(self, moment: datetime) -> None:
        """Move the virtual clock."""

    async def poke(self) -> None:
        """Apply what fell due (the scheduler's sweep)."""


async def step(
    table: Table, tally: Tally, name: str, act: Callable[[], Awaitable[object]]
) -> None:
    before = table.counts()
    await act()
    await table.settle()
    after = table.counts()
    tally.steps.append(Count(name, *(a - b for a, b in zip(after, before, strict=True))))


async def _at(table: Table, tally: Tally, moment: datetime) -> None:
    """Move the clock; what falls due then is its own step ("clock")."""

    async def move() -> None:
        table.set_clock(moment)
        await table.poke()

    await step(table, tally, f"clock {moment:%H:%M}", move)


async def _press(table: Table, who: str, label: str = "Accept") -> None:
    """Press a button that must be there (the outbox may still be sending it)."""
    for _ in range(20):
        if await table.press(who, label):
            return
        await table.settle()
        await asyncio.sleep(0)
    raise AssertionError(f"no {label} button for {who}")


async def play_night(table: Table, start: datetime, *, confirm_by_button: bool = True) -> Tally:
    """Play a whole night; return the counts per step."""
    tally = Tally()
    for who in table.players:
        await step(table, tally, f"register {who}", lambda who=who: table.type(who, "/register"))
        if confirm_by_button:
            await step(table, tally, f"confirm {who}", lambda who=who: table.press(who, "Confirm"))
        else:
            await step(table, tally, f"confirm {who}", lambda who=who: table.type(who, "/confirm"))
    await _at(table, tally, start - timedelta(minutes=30))
    for who in table.players:
        await step(table, tally, f"checkin {who}", lambda who=who: table.type(who, "/checkin"))
    await _at(table, tally, start - timedelta(minutes=5))
    await step(table, tally, "draw", lambda: table.type(table.director, "/draw"))
    await _at(table, tally, start)
    await step(table, tally, "standings", lambda: table.type(table.players[0], "/standings"))
    await step(table, tally, "bracket", lambda: table.type(table.players[1], "/bracket"))
    await step(table, tally, "me", lambda: table.type(table.players[2], "/me"))
    now = start
    for _ in range(200):
        state = await table.state()
        if state.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
            return tally
        ready = [
            m
            for m in sorted(state.matches.values(), key=lambda m: m.number)
            if m.is_ready and not m.is_final and m.report is None
        ]
        if not ready:
            now += timedelta(minutes=5)
            await _at(table, tally, now)
            continue
        match = ready[0]
        if match.start is not None and match.start > now:
            # The reminders (and the round's call) fall due ten minutes before (the
            # preset's match_minutes_before), as the scheduler would see them.
            if match.start - REMINDER > now:
                await _at(table, tally, match.start - REMINDER)
            now = match.start
            await _at(table, tally, now)
        assert match.white is not None and match.black is not None
        white = await table.account(match.white)
        black = await table.account(match.black)
        if match.number == 1:
            # The night's one slip and one dispute: a report without its score is
            # refused with what to type; black disputes, and the director settles it.
            await step(table, tally, "refused 1", lambda w=white: table.type(w, "/report"))
        await step(
            table,
            tally,
            f"report {match.number}",
            lambda m=match, w=white: table.type(w, f"/report {m.length}-0 match:{m.number}"),
        )
        if match.number == 1:
            await step(table, tally, "dispute 1", lambda b=black: _press(table, b, "Dispute"))
            await step(
                table,
                tally,
                "result 1",
                lambda m=match: table.type(
                    table.director, f"/result {m.length}-0 match:{m.number}"
                ),
            )
            continue
        await step(table, tally, f"accept {match.number}", lambda b=black: _press(table, b))
    state = await table.state()
    left = [
        (m.number, m.status.value, m.white, m.black, m.start, m.report is not None)
        for m in state.matches.values()
        if not m.is_final
    ]
    raise AssertionError(f"the night did not finish: {state.status} {left} {tally.summary()}")
