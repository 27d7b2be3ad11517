"""The alarm clock (ARCHITECTURE idea 1): wake up when something falls due, and sweep.

The database is the record of what must happen; `sweep_due` applies whatever fell due
by now, each effect stamped with its own due time, and names the next deadline.
APScheduler only wakes the process: one date job with a fixed id at that deadline,
re-armed after every sweep and brought forward by a command that set an earlier one
(`poke`), plus a safety sweep every minute. A job that fires twice, late, or not at all
(the process was down) changes nothing: the next sweep catches up. Housekeeping (pruning
the bounded stores) runs at start and then hourly, never on the sweep's path.
On PostgreSQL only the holder of the scheduler lock sweeps; the others try to take it
over on every safety tick.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Protocol

from apscheduler.jobstores.base import JobLookupError  # type: ignore[import-untyped]
from apscheduler.schedulers.asyncio import AsyncIOScheduler  # type: ignore[import-untyped]

from bot.clock import Clock

log = logging.getLogger("clubtd.scheduler")

DEADLINE_JOB = "clubtd-deadline"
SAFETY_JOB = "clubtd-safety"
HOUSEKEEPING_JOB = "clubtd-housekeeping"
SAFETY_SECONDS = 60
HOUSEKEEPING_SECONDS = 3600

Sweep = Callable[[datetime], Awaitable[datetime | None]]
Housekeep = Callable[[datetime], Awaitable[None]]


class Lock(Protocol):
    async def acquire(self) -> bool: ...
    async def release(self) -> None: ...


class Scheduler:
    """Sweep at start (catch-up after a restart), at each deadline and every minute."""

    def __init__(
        self,
        sweep: Sweep,
        clock: Clock,
        *,
        lock: Lock | None = None,
        safety_seconds: float = SAFETY_SECONDS,
        after_sweep: Callable[[], Awaitable[None]] | None = None,
        housekeep: Housekeep | None = None,
        housekeeping_seconds: float = HOUSEKEEPING_SECONDS,
    ) -> None:
        self._sweep = sweep
        self._housekeep = housekeep
        self._housekeeping_seconds = housekeeping_seconds
        self._clock = clock
        self._lock = lock
        self._safety_seconds = safety_seconds
        self._after_sweep = after_sweep
        self._aps: AsyncIOScheduler | None = None
        self._busy = asyncio.Lock()
        self.leading = False
        self.next_deadline: datetime | None = None
        self.sweeps = 0

    @property
    def running(self) -> bool:
        return self._aps is not None

    async def start(self) -> None:
        """Start the alarm clock and catch up at once on what fell due while down."""
        if self._aps is not None:
            return
        self._aps = AsyncIOScheduler(timezone=UTC)
        self._aps.start()
        self._aps.add_job(
            self.run_once,
            "interval",
            seconds=self._safety_seconds,
            id=SAFETY_JOB,
            replace_existing=True,
            misfire_grace_time=None,  # the default of 1 s silently drops a late run
            coalesce=True,
            max_instances=1,
        )
        if self._housekeep is not None:
            self._aps.add_job(
                self.housekeep_once,
                "interval",
                seconds=self._housekeeping_seconds,
                id=HOUSEKEEPING_JOB,
                replace_existing=True,
                misfire_grace_time=None,
                coalesce=True,
                max_instances=1,
            )
        await self.run_once()
        await self.housekeep_once()

    async def stop(self) -> None:
        """Stop waking up and give the leadership away."""
        aps, self._aps = self._aps, None
        if aps is not None:
            aps.shutdown(wait=False)
        async with self._busy:
            if self._lock is not None and self.leading:
                await self._lock.release()
            self.leading = False

    def poke(self, deadline: datetime | None = None) -> None:
        """Re-arm for a command's next deadline (None: it set none): the alarm moves
        forward to it if it is earlier, nothing is swept before it falls due."""
        if deadline is None:
            return
        armed = self.armed_at()
        if armed is None or deadline < armed:
            self._arm(max(deadline, self._clock.now()))

    async def housekeep_once(self) -> None:
        """Prune the bounded stores if this process leads (the lock the sweep takes)."""
        if self._housekeep is None or not self.leading:
            return
        try:
            await self._housekeep(self._clock.now())
        except Exception:
            log.exception("housekeeping failed; the next hour tries again")

    async def run_once(self) -> datetime | None:
        """Sweep what is due now if this process leads; re-arm the deadline job."""
        async with self._busy:
            if self._lock is not None:
                self.leading = await self._lock.acquire()
            else:
                self.leading = True
            if not self.leading:
                return None  # another process sweeps; the safety tick tries again
            try:
                deadline = await self._sweep(self._clock.now())
            except Exception:
                log.exception("sweep failed; the safety sweep tries again")
                return self.next_deadline
            self.sweeps += 1
            self.next_deadline = deadline
        self._arm(deadline)
        if self._after_sweep is not None:
            await self._after_sweep()
        return deadline

    def _arm(self, deadline: datetime | None) -> None:
        if self._aps is None:
            return
        if deadline is None:
            with contextlib.suppress(JobLookupError):
                self._aps.remove_job(DEADLINE_JOB)
            return
        self._aps.add_job(
            self.run_once,
            "date",
            run_date=deadline,
            id=DEADLINE_JOB,
            replace_existing=True,
            misfire_grace_time=None,
            coalesce=True,
            # A poke during a sweep arms this job again at once; run_once serialises the
            # runs itself, so a second instance waits instead of being skipped with a warning.
            max_instances=2,
        )

    def armed_at(self) -> datetime | None:
        """Return when the deadline job will fire, if it is armed."""
        if self._aps is None:
            return None
        job = self._aps.get_job(DEADLINE_JOB)
        return None if job is None else job.next_run_time
