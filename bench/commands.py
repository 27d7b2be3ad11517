"""Benchmark the command layer: a 46-player night on SQLite and on PostgreSQL.

Register, confirm, check in, draw, every result (report and accept), the knockout to
the final: each command through `commands.dispatch.handle`, commit included. Prints p50
and p99 per command and the whole night's total beside the goals of issue 17, then the
demo night (bot/demo/night.transcript) replayed through the console, sweeps and outbox
included, per command (the median of five nights). On PostgreSQL it also counts each
command's round trips to the server (`Writes`). The SQLite night is played again with a
short sleep before each command, as commands reach a bot: a CPU that idled in between
runs the command slower.
Run: python -m bench.commands [--players 46]
[--postgres postgresql://postgres@127.0.0.1:5432/postgres]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import secrets
import selectors
import statistics
import tempfile
import time
from collections import defaultdict
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import asyncpg  # type: ignore[import-untyped]
from sqlalchemy.engine import make_url

from commands.config import CommandConfig
from commands.dispatch import handle
from commands.session import Invocation
from storage.engine import make_engine
from storage.migrate import upgrade
from storage.unit_of_work import unit_of_work_factory
from tournament.model import TournamentStatus

# Issue 17's goals (ms): /report p50 and p99 per database, the console night per command.
GOALS_MS = {"sqlite": (1.0, 3.0), "postgresql": (2.0, None)}
CONSOLE_GOAL_MS = 2.0
CONSOLE_NIGHTS = 5  # the demo night replayed this many times: its median is reported
DEMO = Path(__file__).resolve().parent.parent / "bot" / "demo" / "night.transcript"


class Writes:
    """Count the process's socket writes (asyncio transports) while `on`: on PostgreSQL,
    asyncpg writes one request and waits for its answer, so writes are round trips (an
    executemany's pipelined batch may take a few writes). Patched only for this bench."""

    def __init__(self) -> None:
        self.on = False
        self.count = 0
        self.trips: dict[str, list[int]] = defaultdict(list)  # per command word
        # Seconds the event loop sat in epoll while `on`: the command waiting for the
        # server (its work, the commit's WAL flush to disk, the wake-up), not our CPU.
        self.waited = 0.0
        self.waits: dict[str, list[float]] = defaultdict(list)

    def __enter__(self) -> Writes:
        from asyncio import selector_events

        # asyncio's socket transport, private: read by name for this measurement only.
        self._transport: Any = getattr(selector_events, "_SelectorSocketTransport")  # noqa: B009
        self._original = write = self._transport.write

        def counting(this: object, data: object) -> None:
            if self.on:
                self.count += 1
            write(this, data)

        self._transport.write = counting
        self._select = select = selectors.EpollSelector.select

        def waiting(this: selectors.EpollSelector, timeout: float | None = None) -> Any:
            began = time.perf_counter()
            try:
                return select(this, timeout)
            finally:
                if self.on:
                    self.waited += time.perf_counter() - began

        selectors.EpollSelector.select = waiting  # type: ignore[method-assign,assignment]
        return self

    def __exit__(self, *_: object) -> None:
        self._transport.write = self._original
        selectors.EpollSelector.select = self._select  # type: ignore[method-assign]


class _Retries(logging.Handler):
    """Count the commands a lock-free unit of work gave up on (commands/dispatch.py logs
    each at DEBUG before running it again, locked)."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.counts: dict[str, int] = defaultdict(int)  # by command word

    def emit(self, record: logging.LogRecord) -> None:
        said = record.getMessage()
        if "again, locked" in said:
            self.counts["/" + said.split(":")[0].split()[-1]] += 1


async def night(
    url: str, players: int, writes: Writes | None = None, idle: float = 0.0
) -> tuple[dict[str, list[float]], float]:
    """Play a night through the command layer; return each command word's times and the
    whole night's. `idle`: seconds the process sleeps before each command, as a bot
    waits between messages (a CPU that idled runs the next command slower)."""
    await upgrade(url)
    engine = make_engine(url)
    uow_factory = unit_of_work_factory(engine)
    config = CommandConfig(directors=frozenset({("console", "director")}))
    timings: dict[str, list[float]] = defaultdict(list)
    clock = [datetime(2026, 1, 30, 12, 0, tzinfo=UTC)]

    async def say(user: str, text: str) -> bool:
        inv = Invocation("console", "club", user, user, text, clock[0])
        if idle:
            await asyncio.sleep(idle)
        if writes is not None:
            writes.count, writes.waited, writes.on = 0, 0.0, True
        began = time.perf_counter()
        response = await handle(inv, uow_factory=uow_factory, config=config)
        timings[text.split()[0]].append(time.perf_counter() - began)
        if writes is not None:
            writes.on = False
            writes.trips[text.split()[0]].append(writes.count)
            writes.waits[text.split()[0]].append(writes.waited)
        return response is not None and not response.refused

    names = [f"player{i:02}" for i in range(1, players + 1)]
    began = time.perf_counter()
    assert await say(
        "director", '/tournament new name:"Bench Cup" start:"2026-01-31 20:00" approval:no'
    )
    for name in names:
        assert await say(name, "/register")
        assert await say(name, "/confirm")
    clock[0] = datetime(2026, 1, 31, 19, 30, tzinfo=UTC)
    for name in names:
        assert await say(name, "/checkin")
    assert await say("director", "/draw")
    clock[0] = datetime(2026, 1, 31, 20, 0, tzinfo=UTC)
    while True:
        async with uow_factory() as uow:
            club = await uow.clubs.for_chat("console", "club")
            assert club is not None
            state = await uow.tournaments.current(club.id)
            assert state is not None
            ids = {p.id: p.name for p in (await uow.players.all(club.id))}
        if state.status is TournamentStatus.FINISHED:
            break
        ready = [m for m in state.matches.values() if m.is_ready and not m.is_final]
        clock[0] += timedelta(minutes=5)
        for match in sorted(ready, key=lambda m: m.number):
            assert match.white is not None and match.black is not None
            score = f"{match.length}-{match.length // 2}"
            assert await say(ids[match.white], f"/report {score} match:{match.number}")
            assert await say(ids[match.black], f"/accept {match.number}")
    total = time.perf_counter() - began
    await engine.dispose()
    return timings, total


def _goal(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}ms"


def report(
    title: str,
    timings: dict[str, list[float]],
    total: float,
    database: str = "sqlite",
    trips: dict[str, list[int]] | None = None,
    waits: dict[str, list[float]] | None = None,
) -> None:
    print(f"\n{title}")
    extra = f" {'trips':>6}" if trips else ""
    extra += f" {'waited':>9}" if waits else ""
    print(
        f"{'command':<12} {'count':>6} {'p50':>9} {'p99':>9} {'goal p50':>9} {'goal p99':>9}"
        + extra
    )
    everything: list[float] = []
    for command, values in sorted(timings.items()):
        everything += values
        values = sorted(values)
        p99 = values[min(len(values) - 1, int(len(values) * 0.99))]
        goals = GOALS_MS[database] if command == "/report" else (None, None)
        # The median round trips to the server a command of this kind made.
        median_trips = f" {statistics.median(trips[command]):>6.0f}" if trips else ""
        if waits:
            median_trips += f" {statistics.median(waits[command]) * 1000:>7.2f}ms"
        print(
            f"{command:<12} {len(values):>6} {statistics.median(values) * 1000:>7.2f}ms"
            f" {p99 * 1000:>7.2f}ms {_goal(goals[0]):>9} {_goal(goals[1]):>9}" + median_trips
        )
    everything.sort()
    p99 = everything[min(len(everything) - 1, int(len(everything) * 0.99))]
    print(
        f"{'all':<12} {len(everything):>6} {statistics.median(everything) * 1000:>7.2f}ms"
        f" {p99 * 1000:>7.2f}ms"
    )
    print(f"whole night: {total:.2f}s")


async def console_night(url: str) -> tuple[int, float]:
    """Replay the demo night through the console (sweeps, outbox, printing); return the
    number of commands and the seconds it took, start-up excluded."""
    from bot.console import ConsoleBot, PlainOutput
    from bot.grammar import CommandStep, parse_script
    from bot.transcript import run_script
    from storage.outbox import OutboxStore

    await upgrade(url)
    engine = make_engine(url)
    lines: list[str] = []
    bot = ConsoleBot(
        uow_factory=unit_of_work_factory(engine),
        config=CommandConfig(),
        outbox=OutboxStore(engine),
        output=PlainOutput(lines.append),
    )
    text = DEMO.read_text(encoding="utf-8")
    commands = sum(isinstance(step, CommandStep) for _, step in parse_script(text))
    began = time.perf_counter()
    status = await run_script(bot, text)
    took = time.perf_counter() - began
    await engine.dispose()
    assert status == 0, status
    return commands, took


def report_console(commands: int, took: list[float]) -> None:
    """Print the demo night's cost per command: the median of its nights (one night
    ranged from 1.5 to 2.1 ms a command from one run to the next, in one process)."""
    per = sorted(seconds / commands * 1000 for seconds in took)
    print(
        f"\nConsole, demo night (SQLite): {commands} commands, {statistics.median(per):.2f}ms"
        f" per command (median of {len(per)} nights, {per[0]:.2f}-{per[-1]:.2f};"
        f" goal {CONSOLE_GOAL_MS:.1f}ms)"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=46)
    parser.add_argument("--postgres", default="postgresql://postgres@127.0.0.1:5432/postgres")
    parser.add_argument(
        "--idle-ms",
        type=float,
        default=2.0,
        help="also play the SQLite night with this pause before each command (0: not)",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'bench.db'}"
        report(f"SQLite, {args.players} players", *await night(url, args.players))
        if args.idle_ms:
            idle = args.idle_ms / 1000
            timings, total = await night(
                f"sqlite:///{Path(folder) / 'idle.db'}", args.players, idle=idle
            )
            report(
                f"SQLite, {args.players} players, {args.idle_ms:g} ms idle before each command"
                " (as between a bot's messages; the whole night includes the pauses)",
                timings,
                total,
            )
        nights = [
            await console_night(f"sqlite:///{Path(folder) / f'console{n}.db'}")
            for n in range(CONSOLE_NIGHTS)
        ]
        report_console(nights[0][0], [took for _, took in nights])
    name = f"clubtd_bench_{secrets.token_hex(4)}"
    try:
        admin = await asyncpg.connect(args.postgres)
    except (OSError, asyncpg.PostgresError) as error:
        print(f"\nPostgreSQL skipped: {error}")
        return
    await admin.execute(f'CREATE DATABASE "{name}"')
    try:
        url = make_url(args.postgres).set(database=name).render_as_string(hide_password=False)
        again = _Retries()
        commands_log = logging.getLogger("clubtd.commands")
        level = commands_log.level
        commands_log.addHandler(again)
        commands_log.setLevel(logging.DEBUG)
        try:
            with Writes() as writes:
                timings, total = await night(url, args.players, writes)
        finally:
            commands_log.removeHandler(again)
            commands_log.setLevel(level)
        report(
            f"PostgreSQL, {args.players} players",
            *(timings, total, "postgresql", writes.trips, writes.waits),
        )
        for word in ("/confirm", "/checkin", "/report", "/accept"):
            done, retried = len(timings[word]), again.counts[word]
            print(
                f"lock-free {word}: {done - retried} of {done} in one statement,"
                f" {retried} run again, locked (storage/transaction.py)"
            )
        print("trips: median round trips to PostgreSQL a command (socket writes)")
        print(
            "waited: median time a command waited for PostgreSQL (the loop idle in epoll:"
            " the server's work, its commit's flush to disk, the wake-up); the rest is ours"
        )
    finally:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()


if __name__ == "__main__":
    asyncio.run(main())
