"""The alarm clock (ARCHITECTURE idea 1): catch up at start, wake at each deadline."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from bot.bootstrap import build
from bot.clock import RealClock, VirtualClock
from bot.scheduler import DEADLINE_JOB, HOUSEKEEPING_JOB, SAFETY_JOB, Scheduler
from bot.settings import Settings

T0 = datetime(2026, 1, 31, 19, 0, tzinfo=UTC)


class FakeSweep:
    def __init__(self, *deadlines: datetime | None) -> None:
        self.deadlines = list(deadlines)
        self.calls: list[datetime] = []

    async def __call__(self, now: datetime) -> datetime | None:
        self.calls.append(now)
        return self.deadlines.pop(0) if self.deadlines else None


class FakeLock:
    def __init__(self, granted: bool) -> None:
        self.granted = granted
        self.released = 0

    async def acquire(self) -> bool:
        return self.granted

    async def release(self) -> None:
        self.released += 1


async def test_start_sweeps_at_once_and_arms_the_next_deadline() -> None:
    deadline = datetime(2099, 1, 1, tzinfo=UTC)
    sweep = FakeSweep(deadline)
    scheduler = Scheduler(sweep, VirtualClock(T0))
    await scheduler.start()
    try:
        assert sweep.calls == [T0]  # catch-up with the clock's time
        assert scheduler.armed_at() == deadline
        assert scheduler.next_deadline == deadline
        aps = scheduler._aps
        assert aps is not None
        for job_id in (DEADLINE_JOB, SAFETY_JOB):
            job = aps.get_job(job_id)
            assert job is not None and job.misfire_grace_time is None
    finally:
        await scheduler.stop()


async def test_the_deadline_job_fires_sweeps_and_rearms() -> None:
    soon = datetime.now(UTC) + timedelta(milliseconds=200)
    sweep = FakeSweep(soon, None)
    scheduler = Scheduler(sweep, RealClock())
    await scheduler.start()
    try:
        for _ in range(50):
            if len(sweep.calls) == 2:
                break
            await asyncio.sleep(0.05)
        assert len(sweep.calls) == 2
        assert sweep.calls[1] >= soon
        assert scheduler.armed_at() is None  # nothing waits any more
    finally:
        await scheduler.stop()


async def test_a_deadline_in_the_past_still_fires() -> None:
    """misfire_grace_time=None: a late wake-up runs instead of being dropped."""
    sweep = FakeSweep(datetime.now(UTC) - timedelta(minutes=5), None)
    scheduler = Scheduler(sweep, RealClock())
    await scheduler.start()
    try:
        for _ in range(40):
            if len(sweep.calls) == 2:
                break
            await asyncio.sleep(0.05)
        assert len(sweep.calls) == 2
    finally:
        await scheduler.stop()


async def test_poke_sweeps_soon_when_the_commands_deadline_is_now() -> None:
    sweep = FakeSweep(None, None)
    scheduler = Scheduler(sweep, RealClock())
    await scheduler.start()
    try:
        scheduler.poke(datetime.now(UTC))
        for _ in range(40):
            if len(sweep.calls) == 2:
                break
            await asyncio.sleep(0.05)
        assert len(sweep.calls) == 2
    finally:
        await scheduler.stop()


async def test_poke_moves_the_alarm_forward_and_never_back() -> None:
    """A command re-arms at its own next deadline instead of sweeping everything now."""
    later = datetime(2099, 1, 1, tzinfo=UTC)
    sweep = FakeSweep(later)
    scheduler = Scheduler(sweep, VirtualClock(T0))
    await scheduler.start()
    try:
        scheduler.poke(None)  # the command set no deadline
        assert scheduler.armed_at() == later and sweep.calls == [T0]
        sooner = T0 + timedelta(hours=1)
        scheduler.poke(sooner)
        assert scheduler.armed_at() == sooner
        scheduler.poke(sooner + timedelta(minutes=5))  # later than armed: stays
        assert scheduler.armed_at() == sooner and sweep.calls == [T0]
    finally:
        await scheduler.stop()


async def test_housekeeping_runs_at_start_and_on_its_own_hourly_job() -> None:
    pruned: list[datetime] = []

    async def housekeep(now: datetime) -> None:
        pruned.append(now)

    scheduler = Scheduler(FakeSweep(), VirtualClock(T0), housekeep=housekeep)
    await scheduler.start()
    try:
        assert pruned == [T0]
        aps = scheduler._aps
        assert aps is not None
        job = aps.get_job(HOUSEKEEPING_JOB)
        assert job is not None and job.trigger.interval == timedelta(hours=1)
    finally:
        await scheduler.stop()


async def test_without_the_lock_another_process_sweeps() -> None:
    sweep = FakeSweep(datetime(2099, 1, 1, tzinfo=UTC))
    lock = FakeLock(granted=False)
    scheduler = Scheduler(sweep, VirtualClock(T0), lock=lock)
    await scheduler.start()
    try:
        assert sweep.calls == []
        assert not scheduler.leading
        assert scheduler.armed_at() is None
        lock.granted = True  # the leader died: the next safety tick takes over
        await scheduler.run_once()
        assert scheduler.leading and sweep.calls == [T0]
    finally:
        await scheduler.stop()
    assert lock.released == 1


async def test_a_failing_sweep_is_logged_and_retried(caplog: pytest.LogCaptureFixture) -> None:
    """The first sweep fails; the safety sweep runs it again, and that one succeeds."""
    calls: list[datetime] = []
    retried = asyncio.Event()

    async def flaky(now: datetime) -> datetime | None:
        calls.append(now)
        if len(calls) == 1:
            raise RuntimeError("database went away")
        retried.set()
        return None

    scheduler = Scheduler(flaky, VirtualClock(T0), safety_seconds=0.05)
    await scheduler.start()
    try:
        assert "sweep failed" in caplog.text
        assert scheduler.running and scheduler.sweeps == 0
        await asyncio.wait_for(retried.wait(), timeout=10)
        assert len(calls) >= 2
        assert scheduler.sweeps >= 1  # the retry counted as a sweep that worked
    finally:
        await scheduler.stop()


async def test_one_leader_per_database(database_url: str) -> None:
    """On PostgreSQL one process of a database sweeps; SQLite is one process."""
    settings = Settings(database_url=database_url)
    first = await build(settings, clock=RealClock())
    second = await build(settings, clock=RealClock())
    try:
        await first.scheduler.start()
        await second.scheduler.start()
        leaders = [first.scheduler.leading, second.scheduler.leading]
        if database_url.startswith("sqlite"):
            assert leaders == [True, True]
        else:
            assert leaders == [True, False]
            await first.close()
            await second.scheduler.run_once()
            assert second.scheduler.leading
    finally:
        await first.close()
        await second.close()
