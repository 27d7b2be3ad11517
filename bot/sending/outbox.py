"""The outbox sender loop (ARCHITECTURE idea 2), for any transport.

It claims due rows of one platform, sends each chat's rows in order within the
transport's pacing, and marks every row: sent once the platform accepted it; back to
the queue after `RetryLater` (holding that chat's later rows behind it, so the order
stays); failed when `Rejected`. A private message to someone `Unreachable` becomes a
short mention in the club's chat and is tried again a few times.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta

from bot.sending.transport import Rejected, RetryLater, Transport, Unreachable
from commands.replies import from_payload
from storage.outbox import OutboxRow, OutboxStore
from storage.unit_of_work import SqlUnitOfWork
from tournament.club import Club

log = logging.getLogger("clubtd.outbox")


class OutboxSender:
    """Drain one platform's rows of the outbox, politely and without losing any."""

    def __init__(
        self,
        store: OutboxStore,
        transport: Transport,
        uow_factory: Callable[[], SqlUnitOfWork],
        clock: Callable[[], datetime],
        *,
        batch: int = 20,
        interval: float = 1.0,
        max_wait: float = 1.5,
        dm_retry: timedelta = timedelta(minutes=2),
        dm_attempts: int = 5,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = store
        self.transport = transport
        self.uow_factory = uow_factory
        self.clock = clock
        self.batch = batch
        self.interval = interval
        self.max_wait = max_wait
        self.dm_retry = dm_retry
        self.dm_attempts = dm_attempts
        self._sleep = sleep
        self._monotonic = monotonic
        self._wake = asyncio.Event()
        self._stopping = False
        self._task: asyncio.Task[None] | None = None
        self._failures: dict[int, int] = {}
        self._clubs: dict[int, tuple[Club, float]] = {}

    def start(self) -> None:
        if self._task is None:
            self._stopping = False
            name = f"clubtd-{self.transport.platform}-outbox"
            self._task = asyncio.create_task(self.run(), name=name)

    async def stop(self) -> None:
        """Finish the row in hand, then stop; unsent rows stay queued for next time."""
        self._stopping = True
        self._wake.set()
        task, self._task = self._task, None
        if task is not None:
            try:
                await asyncio.wait_for(task, timeout=10)
            except TimeoutError:
                log.warning("the outbox sender did not stop in time; cancelled")

    def wake(self) -> None:
        self._wake.set()

    async def run(self) -> None:
        while not self._stopping:
            try:
                handled = await self.run_once()
            except Exception:
                log.exception("outbox round failed; trying again shortly")
                handled = 0
            if self._stopping:
                break
            if handled >= self.batch:
                continue
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=self.interval)
            self._wake.clear()

    async def run_once(self) -> int:
        """Claim one batch of due rows and send it; return how many rows were claimed."""
        rows = await self.store.claim(self.transport.platform, now=self.clock(), limit=self.batch)
        by_chat: dict[str, list[OutboxRow]] = {}
        for row in rows:
            by_chat.setdefault(row.chat, []).append(row)
        await asyncio.gather(*(self._drain_chat(chat, rs) for chat, rs in by_chat.items()))
        return len(rows)

    async def _drain_chat(self, chat: str, rows: list[OutboxRow]) -> None:
        for index, row in enumerate(rows):
            delay = self.transport.delay(chat)
            if delay > self.max_wait:
                await self._hold(rows[index:], delay, "paced: the chat's send limit")
                return
            if delay > 0:
                await self._sleep(delay)
            try:
                held = await self._send(row)
            except Exception as error:  # a bug must not lose the row: try it again later
                log.exception("outbox row %s failed unexpectedly", row.id)
                held = self._backoff(row)
                await self.store.mark_retry(
                    row.id, at=self.clock(), retry_at=self._at(held), error=f"error: {error!r}"
                )
            if held is not None:
                await self._hold(rows[index + 1 :], held, f"behind row {row.id}")
                return

    async def _hold(self, rows: list[OutboxRow], seconds: float, why: str) -> None:
        retry_at = self._at(seconds)
        for row in rows:
            await self.store.mark_retry(row.id, at=self.clock(), retry_at=retry_at, error=why)

    def _at(self, seconds: float) -> datetime:
        return self.clock() + timedelta(seconds=seconds)

    async def _send(self, row: OutboxRow) -> float | None:
        """Send one row and mark it; return seconds to hold the chat's later rows, if any."""
        try:
            reply = from_payload(row.payload)
        except (KeyError, TypeError, ValueError) as error:
            await self.store.mark_failed(row.id, at=self.clock(), error=f"bad payload: {error}")
            return None
        club = await self._club(row.club_id)
        live = None
        if row.coalesce is not None:
            live = await self.store.live_message(self.transport.platform, row.chat, row.coalesce)
        try:
            ids = await self.transport.deliver(row.chat, reply, club, live)
        except RetryLater as error:
            seconds = error.seconds if error.seconds > 0 else self._backoff(row)
            self.transport.pause(row.chat, seconds)
            await self.store.mark_retry(
                row.id, at=self.clock(), retry_at=self._at(seconds), error=f"retry: {error}"
            )
            return seconds
        except Unreachable as error:
            if row.chat.startswith("user:"):
                await self._unreachable(row, club, str(error))
            else:
                await self.store.mark_failed(row.id, at=self.clock(), error=f"{error}")
            return None
        except Rejected as error:
            await self.store.mark_failed(row.id, at=self.clock(), error=f"rejected: {error}")
            return None
        self._failures.pop(row.id, None)
        await self.store.mark_sent(row.id, at=self.clock(), platform_message_id=ids or None)
        return None

    def _backoff(self, row: OutboxRow) -> float:
        failures = self._failures.get(row.id, 0) + 1
        self._failures[row.id] = failures
        if len(self._failures) > 10_000:
            self._failures.clear()
        return float(min(2**failures, 300))

    async def _unreachable(self, row: OutboxRow, club: Club, why: str) -> None:
        user = row.chat.removeprefix("user:")
        try:
            await self.transport.tell_unreachable(row.club_id, club, user)
        except Exception:
            log.exception("could not tell %s in the club's chat", user)
        attempts = row.attempts + 1
        retry_at = self.clock() + self.dm_retry
        error = f"unreachable ({why}); told in the club's chat"
        expired = row.expires_at is not None and retry_at >= row.expires_at
        if attempts < self.dm_attempts and not expired:
            await self.store.mark_retry(row.id, at=self.clock(), retry_at=retry_at, error=error)
        else:
            await self.store.mark_failed(row.id, at=self.clock(), error=error)

    async def _club(self, club_id: int) -> Club:
        cached = self._clubs.get(club_id)
        now = self._monotonic()
        if cached is not None and cached[1] > now:
            return cached[0]
        async with self.uow_factory() as uow:
            club = await uow.clubs.get(club_id)
        self._clubs[club_id] = (club, now + 60.0)  # a /club change shows within a minute
        return club
