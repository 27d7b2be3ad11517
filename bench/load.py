"""Benchmark many clubs at once: N clubs' nights through the command layer and the sender.

Each club (16 players, on PostgreSQL) plays its night from `/tournament new` through
registration, confirmation, check-in, the draw and reported and accepted results; every
command waits a random, human gap first (exponential, mean `--gap` seconds), so N clubs
offer N / gap commands a second. A command's latency runs from when it was due (the end
of its gap) to its commit, so a process that falls behind shows it. The outbox sender
runs beside them with a loopback transport (nothing leaves the machine).

A night is ~120 commands, 20 minutes at the default pace, and a run lasts seconds: so
before the measured window each club first plays, unpaced and unmeasured, up to a random
point of its night (`--warm`, default on), and the window sees clubs spread over
registration, the groups and the knockout, as a real evening does; `--cold` measures
every club from its `/tournament new` instead (only a night's first commands).

As in `clubtd run`, every club shares one unit-of-work factory (one cache of tournaments
and rosters) and what survives is frozen out of the garbage collector's sight every few
seconds (bot/collector.py); the hourly full collection that gives back what freezing
kept is timed at the end of each run ("hourly full pass").

First one process: N grows through the list (until p99 passes ten times the goal); the
largest N that held p99 <= 50 ms is reported, with the memory each N took. Then the same
load (that N, or `--split N`) split over 2 and 4 processes on one database: throughput,
and zero double effects or double sends, counted from the database. Run:
python -m bench.load [--clubs 25,50,100,200,400,800,1000] [--seconds 30] [--gap 10]
[--processes 2,4] [--split N] [--postgres URL]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import secrets
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import asyncpg  # type: ignore[import-untyped]
from sqlalchemy import func, select
from sqlalchemy.engine import make_url

from bot.collector import freeze_survivors, frozen_garbage
from bot.sending.outbox import OutboxSender
from bot.sending.transport import Progress
from commands.config import CommandConfig
from commands.dispatch import handle
from commands.replies import Reply
from commands.session import Invocation
from storage import tables as t
from storage.engine import make_engine
from storage.migrate import upgrade
from storage.outbox import OutboxStore
from storage.unit_of_work import SqlUnitOfWorkFactory, unit_of_work_factory
from tournament.club import Club
from tournament.model import TournamentStatus

PLAYERS = 16
WARM_UP = 100  # a club starts the window after 0-99 commands of its night
GOAL_P99_MS = 50.0
GOAL_CLUBS = 1000
GOAL_RSS_MB = 300
PLATFORM = "telegram"


class LoopbackTransport:
    """A platform that accepts every message at once and counts them."""

    platform = PLATFORM

    def __init__(self) -> None:
        self.delivered = 0

    def delay(self, chat: str) -> float:
        return 0.0

    def pause(self, chat: str, seconds: float) -> None:
        return None

    async def deliver(
        self, chat: str, reply: Reply, club: Club, live: str | None, progress: Progress
    ) -> str:
        self.delivered += 1
        return f"m{self.delivered}"

    async def tell_unreachable(self, club_id: int, club: Club, user: str) -> None:
        return None

    async def deliver_missed(self, club_id: int, club: Club, user: str, reply: Reply) -> None:
        return None


@dataclass
class Window:
    """The measured window: it opens once every club stands at its starting point."""

    expected: int
    go: asyncio.Event = field(default_factory=asyncio.Event)
    arrived: asyncio.Event = field(default_factory=asyncio.Event)
    warming: asyncio.Semaphore = field(default_factory=lambda: asyncio.Semaphore(4))
    clubs: set[int] = field(default_factory=set)  # those at their starting point

    def arrive(self, club: int) -> None:
        self.clubs.add(club)
        if len(self.clubs) >= self.expected:
            self.arrived.set()


@dataclass
class Tally:
    """What one process measured."""

    latencies: list[float] = field(default_factory=list)  # ms, due to committed
    by_command: dict[str, list[float]] = field(default_factory=dict)
    commands: int = 0
    registered: int = 0  # /register commands that were accepted (warm-up included)
    refused: int = 0


async def club_night(
    number: int,
    engine: Any,
    uow_factory: SqlUnitOfWorkFactory,
    config: CommandConfig,
    gap: float,
    tally: Tally,
    stop: asyncio.Event,
    window: Window,
    skip: int,
) -> None:
    """Play one club's night: its first `skip` commands at once and unmeasured, then,
    once the window opens, one paced command at a time until `stop`."""
    try:
        outbox = OutboxStore(engine)
        chat = f"-{9_000_000 + number}"
        director = 5_000_000 + number
        users = [100_000_000 + number * 100 + i for i in range(PLAYERS)]
        clock = [datetime(2026, 1, 30, 12, 0, tzinfo=UTC)]
        rng = random.Random(number)
        due = time.perf_counter()

        left = skip

        async def say(user: int, text: str) -> bool:
            nonlocal due, left
            warming = left > 0
            if warming:
                left -= 1
            else:
                if left == 0:
                    left = -1
                    window.arrive(number)
                    await window.go.wait()
                    due = time.perf_counter()
                due += rng.expovariate(1 / gap)
                await asyncio.sleep(max(0.0, due - time.perf_counter()))
            if stop.is_set():
                raise asyncio.CancelledError
            inv = Invocation(PLATFORM, chat, str(user), f"Player {user}", text, clock[0])
            if warming:
                async with window.warming:  # a few at once: the pool has ten connections
                    response = await handle(inv, uow_factory=uow_factory, config=config)
            else:
                response = await handle(inv, uow_factory=uow_factory, config=config)
            # No chat to answer in: hand the announcements a reply carries to the sender,
            # as an adapter does once its answer went out.
            for row_id in response.held if response is not None else ():
                await outbox.release(row_id, at=clock[0])
            ok = response is not None and not response.refused
            tally.registered += ok and text == "/register"
            if warming:
                return ok
            tally.latencies.append((time.perf_counter() - due) * 1000)
            tally.by_command.setdefault(text.split()[0], []).append(tally.latencies[-1])
            tally.commands += 1
            tally.refused += not ok
            return ok

        await say(
            director,
            '/tournament new name:"Club Night" preset:hgv-backgammon start:"2026-01-31 20:00" '
            "approval:no",
        )
        for user in users:
            await say(user, "/register")
            await say(user, "/confirm")
        clock[0] = datetime(2026, 1, 31, 19, 30, tzinfo=UTC)
        for user in users:
            await say(user, "/checkin")
        await say(director, "/draw")
        clock[0] = datetime(2026, 1, 31, 20, 0, tzinfo=UTC)
        known: dict[int, int] = {}  # player id -> Telegram user id, as the players know
        for _ in range(40):
            async with uow_factory() as uow:
                club = await uow.clubs.for_chat(PLATFORM, chat)
                state = await uow.tournaments.current(club.id) if club is not None else None
            if state is None or state.status is TournamentStatus.FINISHED:
                return
            ready = sorted(
                (m for m in state.matches.values() if m.is_ready and not m.is_final),
                key=lambda m: m.number,
            )
            clock[0] += timedelta(minutes=5)
            for match in ready:
                white, black = await _accounts(engine, known, match.white, match.black)
                score = f"{match.length}-{match.length // 2}"
                await say(white, f"/report {score} match:{match.number}")
                await say(black, f"/accept {match.number}")

    finally:
        window.arrive(number)  # also when its night ended (or failed) before that point


async def _accounts(engine: Any, known: dict[int, int], *player_ids: int | None) -> list[int]:
    """Return the Telegram user ids of players, for the reports between rounds: asked of
    the database once per player (the players are the load's clients, not its work)."""
    missing = [p for p in player_ids if p is not None and p not in known]
    if missing:
        async with engine.connect() as conn:
            rows = await conn.execute(
                select(t.accounts.c.player_id, t.accounts.c.external_id).where(
                    t.accounts.c.player_id.in_(missing)
                )
            )
            known.update((row.player_id, int(row.external_id)) for row in rows)
    return [known[p] for p in player_ids if p is not None]


def rss_mb() -> tuple[float, float]:
    """Return this process's resident memory now and at its peak, in MB."""
    values = {}
    with open("/proc/self/status") as status:
        for line in status:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                values[key] = int(value.split()[0]) / 1024
    return values.get("VmRSS", 0.0), values.get("VmHWM", 0.0)


async def run_clubs(
    url: str, clubs: list[int], seconds: float, gap: float, warm: bool, drain: float = 20.0
) -> dict[str, Any]:
    """Play `clubs` for `seconds` with a sender beside them; return what was measured."""
    engine = make_engine(url)
    uow_factory = unit_of_work_factory(engine)
    outbox = OutboxStore(engine)
    transport = LoopbackTransport()
    sender = OutboxSender(outbox, transport, uow_factory, lambda: datetime.now(UTC), interval=0.2)
    config = CommandConfig(directors=frozenset({(PLATFORM, str(5_000_000 + c)) for c in clubs}))
    tally = Tally()
    stop, window = asyncio.Event(), Window(len(clubs))
    sender.start()
    # As `clubtd run` does: what lives on leaves the collector's sight (bot/collector.py).
    freezer = asyncio.create_task(freeze_survivors())
    # Where each club's evening stands when the window opens (a night is ~120 commands).
    skips = [random.Random(f"warm{c}").randrange(0, WARM_UP) if warm else 0 for c in clubs]
    tasks = [
        # One factory for every club, as `clubtd run` has: one cache of tournaments and
        # rosters for the whole process.
        asyncio.create_task(
            club_night(c, engine, uow_factory, config, gap, tally, stop, window, skip)
        )
        for c, skip in zip(clubs, skips, strict=True)
    ]
    await window.arrived.wait()
    # The window opens on an empty outbox: the warm-up's messages are not its load.
    deadline = time.monotonic() + drain
    while time.monotonic() < deadline and await _unsent(engine) > 0:  # noqa: ASYNC110
        await asyncio.sleep(0.2)
    # A database in service has its statistics (autovacuum analyses within a minute); a
    # fresh one filled seconds ago has none, and PostgreSQL then planned the sender's
    # look-up of a board's message on the wrong index: 2.6 ms instead of 0.15.
    async with engine.begin() as conn:
        await conn.exec_driver_sql("ANALYZE")
    window.go.set()
    began = time.perf_counter()
    await asyncio.sleep(seconds)
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    wall = time.perf_counter() - began
    # The hourly full collection of bot/collector.py, over this process's heap now.
    freezer.cancel()
    reclaim = time.perf_counter()
    garbage = frozen_garbage()
    reclaim = time.perf_counter() - reclaim
    # Let the senders empty the shared outbox before they stop.
    deadline = time.monotonic() + drain
    while time.monotonic() < deadline and await _unsent(engine) > 0:  # noqa: ASYNC110
        await asyncio.sleep(0.2)
    await sender.stop()
    await engine.dispose()
    now, peak = rss_mb()
    return {
        "latencies": tally.latencies,
        "by_command": tally.by_command,
        "commands": tally.commands,
        "registered": tally.registered,
        "refused": tally.refused,
        "delivered": transport.delivered,
        "wall": wall,
        "rss": now,
        "peak": peak,
        "frozen_garbage": garbage,
        "full_pass_ms": reclaim * 1000,
    }


async def _unsent(engine: Any) -> int:
    async with engine.connect() as conn:
        query = select(func.count()).select_from(t.outbox).where(t.outbox.c.status == "pending")
        return int((await conn.execute(query)).scalar_one())


async def _counts(url: str) -> dict[str, int]:
    engine = make_engine(url)
    try:
        async with engine.connect() as conn:
            entries = (
                await conn.execute(select(func.count()).select_from(t.entries))
            ).scalar_one()
            rows = await conn.execute(
                select(t.outbox.c.status, func.count()).group_by(t.outbox.c.status)
            )
            by_status = {status: int(n) for status, n in rows}
    finally:
        await engine.dispose()
    return {"entries": int(entries), **{f"outbox_{k}": v for k, v in by_status.items()}}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] if ordered else 0.0


async def fresh_database(admin_url: str) -> tuple[str, Any]:
    admin = await asyncpg.connect(admin_url)
    name = f"clubtd_load_{secrets.token_hex(4)}"
    await admin.execute(f'CREATE DATABASE "{name}"')
    # make_url keeps a socket's `?host=/var/run/postgresql` that rsplit would cut.
    url = make_url(admin_url).set(database=name).render_as_string(hide_password=False)
    await upgrade(url)
    return url, (admin, name)


async def drop_database(handle_: Any) -> None:
    admin, name = handle_
    await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    await admin.close()


def worker_main(args: argparse.Namespace) -> None:
    clubs = [c for c in range(args.clubs_total) if c % args.of == args.worker]
    result = asyncio.run(run_clubs(args.url, clubs, args.seconds, args.gap, not args.cold))
    print(json.dumps(result))


async def one_process(
    admin_url: str, sizes: list[int], seconds: float, gap: float, warm: bool
) -> int:
    if not sizes:
        return 0  # --clubs "": only the split (--split N) is measured
    print(f"\nOne process, {PLAYERS} players a club, a command per club every ~{gap:g} s")
    print("each club from " + ("a random point of its night" if warm else "its /tournament new"))
    print(
        f"{'clubs':>6} {'cmd/s':>7} {'p50':>8} {'p99':>8} {'RSS MB':>7}"
        f"  {'slowest command p99':<24} {'hourly full pass':<18} (goal p99 <= 50 ms)"
    )
    best = 0
    for size in sizes:
        url, handle_ = await fresh_database(admin_url)
        try:
            result = await run_clubs(url, list(range(size)), seconds, gap, warm)
        finally:
            await drop_database(handle_)
        latencies = result["latencies"]
        p99 = percentile(latencies, 0.99)
        word, worst = max(
            ((w, percentile(v, 0.99)) for w, v in result["by_command"].items()),
            key=lambda pair: pair[1],
            default=("-", 0.0),
        )
        print(
            f"{size:>6} {result['commands'] / result['wall']:>7.1f}"
            f" {statistics.median(latencies):>6.1f}ms {p99:>6.1f}ms {result['peak']:>7.0f}"
            f"  {f'{word} {worst:.1f}ms':<24} {result['full_pass_ms']:>6.0f}ms"
            f" ({result['frozen_garbage']} freed)"
        )
        if p99 <= GOAL_P99_MS:
            best = size
        elif p99 > 10 * GOAL_P99_MS:
            break  # far past the goal: larger N only take longer to say so
    print(
        f"largest N with p99 <= {GOAL_P99_MS:g} ms: {best} clubs "
        f"(goal {GOAL_CLUBS} clubs in <= {GOAL_RSS_MB} MB)"
    )
    return best


async def processes(
    admin_url: str, clubs: int, counts: list[int], seconds: float, gap: float, warm: bool
) -> None:
    print(f"\n{clubs} clubs split over processes on one PostgreSQL database")
    print(
        f"{'procs':>6} {'cmd/s':>7} {'p50':>8} {'p99':>8}"
        f" {'double effects':>15} {'double sends':>13}"
    )
    for count in counts:
        url, handle_ = await fresh_database(admin_url)
        try:
            children = [
                await asyncio.create_subprocess_exec(
                    sys.executable,
                    "-m",
                    "bench.load",
                    "--worker",
                    str(k),
                    "--of",
                    str(count),
                    "--url",
                    url,
                    "--clubs-total",
                    str(clubs),
                    "--seconds",
                    str(seconds),
                    "--gap",
                    str(gap),
                    *([] if warm else ["--cold"]),
                    stdout=subprocess.PIPE,
                )
                for k in range(count)
            ]
            outputs = [await child.communicate() for child in children]
            results = [json.loads(out.decode().strip().splitlines()[-1]) for out, _ in outputs]
            counted = await _counts(url)
        finally:
            await drop_database(handle_)
        latencies = [v for r in results for v in r["latencies"]]
        commands = sum(r["commands"] for r in results)
        wall = max(r["wall"] for r in results)
        double_effects = counted["entries"] - sum(r["registered"] for r in results)
        double_sends = sum(r["delivered"] for r in results) - counted.get("outbox_sent", 0)
        unsent = counted.get("outbox_pending", 0)
        print(
            f"{count:>6} {commands / wall:>7.1f} {statistics.median(latencies):>6.1f}ms"
            f" {percentile(latencies, 0.99):>6.1f}ms {double_effects:>15} {double_sends:>13}"
            + (f"  ({unsent} rows still unsent)" if unsent else "")
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--clubs", default="25,50,100,200,400,800,1000")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--gap", type=float, default=10.0)
    parser.add_argument("--processes", default="2,4")
    parser.add_argument("--split", type=int, help="clubs for the split (default: largest N held)")
    parser.add_argument("--postgres", default="postgresql://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--cold", action="store_true", help="no warm-up: nights from the start")
    parser.add_argument("--worker", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--of", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--url", help=argparse.SUPPRESS)
    parser.add_argument("--clubs-total", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker is not None:
        worker_main(args)
        return
    sizes = [int(n) for n in args.clubs.split(",") if n.strip()]
    counts = [int(n) for n in args.processes.split(",") if n.strip()]
    if not sizes and not args.split:
        parser.error('--clubs "" measures no single process: give --split N')

    async def run() -> None:
        try:
            await (await asyncpg.connect(args.postgres)).close()
        except (OSError, asyncpg.PostgresError) as error:
            print(f"PostgreSQL is needed and not reachable: {error}")
            return
        best = await one_process(args.postgres, sizes, args.seconds, args.gap, not args.cold)
        # The split is measured at the largest N that held, else at the smallest tried.
        split = args.split or best or sizes[0]
        await processes(args.postgres, split, [1, *counts], args.seconds, args.gap, not args.cold)

    asyncio.run(run())


if __name__ == "__main__":
    main()
