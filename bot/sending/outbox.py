"""The outbox sender loop (ARCHITECTURE idea 2), for any transport.

It claims due rows of one platform, sends each chat's rows in order within the
transport's pacing, and marks every row: sent once the platform accepted it; back to
the queue after `RetryLater` (holding that chat's later rows behind it, so the order
stays); failed when `Rejected`. A private message to someone `Unreachable` becomes a
short mention in the club's chat (once an hour at most) and is tried again a few times.
The parts of a multi-part message that went out are remembered across retries; a row
refused after some parts went out is marked sent, with what went wrong.
One chat gets at most `chat_budget` seconds of a round (waits for its limits included).
A held chat stays held: a row queued meanwhile waits too, so the chat's order holds. A
row that keeps failing without the platform saying why is given up after a few tries
(a bug in it: 3; a passing fault: 10, about a quarter of an hour, and only while the
platform takes other messages: an outage gives nothing up), so it cannot hold the
chat's later rows forever. The database's own hiccups count as passing faults. Rows only
held back (pacing, behind another) do not use up a direct message's tries.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import time
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta

from sqlalchemy.exc import DBAPIError

from bot.sending.transport import (
    Progress,
    Rejected,
    RetryLater,
    SendError,
    Transport,
    Unreachable,
)
from commands.replies import Reply, from_payload
from storage.outbox import OutboxRow, OutboxStore
from storage.unit_of_work import SqlUnitOfWorkFactory
from tournament.club import Club

log = logging.getLogger("clubtd.outbox")


class OutboxSender:
    """Drain one platform's rows of the outbox, politely and without losing any."""

    def __init__(
        self,
        store: OutboxStore,
        transport: Transport,
        uow_factory: SqlUnitOfWorkFactory,
        clock: Callable[[], datetime],
        *,
        batch: int = 20,
        interval: float = 1.0,
        max_wait: float = 1.5,
        chat_budget: float = 4.0,
        dm_retry: timedelta = timedelta(minutes=2),
        dm_attempts: int = 5,
        tell_again_after: float = 3600.0,
        bug_attempts: int = 3,
        fault_attempts: int = 10,
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
        self.chat_budget = chat_budget
        self.dm_retry = dm_retry
        self.dm_attempts = dm_attempts
        self.tell_again_after = tell_again_after
        self.bug_attempts = bug_attempts
        self.fault_attempts = fault_attempts
        self._sleep = sleep
        self._monotonic = monotonic
        self._wake = asyncio.Event()
        self._stopping = False
        self._task: asyncio.Task[None] | None = None
        self._failures: dict[tuple[int, str], int] = {}  # (row id, "bug" | "fault")
        self._progress: dict[int, Progress] = {}  # row id -> the parts already sent
        self._told: dict[tuple[int, str], float] = {}  # (club, person) -> tell again after
        self._clubs: dict[int, tuple[Club, float]] = {}
        self._blocked: dict[str, float] = {}  # chat -> held until (monotonic)
        self._first_failed: dict[int, float] = {}  # row id -> its first failure (monotonic)
        self._last_ok = 0.0  # when the platform last took a message (monotonic)

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
        started = self._monotonic()
        blocked = self._blocked.get(chat, 0.0) - started
        if blocked > 0:
            # An earlier row of this chat waits for its retry: what came after waits too.
            await self._hold(rows, blocked, "behind an earlier row of this chat")
            return
        self._blocked.pop(chat, None)
        for index, row in enumerate(rows):
            delay = self.transport.delay(chat)
            spent = self._monotonic() - started
            if delay > self.max_wait or spent + delay > self.chat_budget:
                self._block(chat, delay)  # a row queued meanwhile must not overtake these
                await self._hold(rows[index:], delay, "paced: the chat's send limit")
                return
            if delay > 0:
                await self._sleep(delay)
            try:
                held = await self._send(row)
            except DBAPIError as error:  # the database, not the row: a passing fault
                log.warning("outbox row %s: database error %r", row.id, error)
                held = await self._retry_or_give_up(row, f"database: {error!r}", "fault")
            except Exception as error:  # a bug must not lose the row: try it again later
                log.exception("outbox row %s failed unexpectedly", row.id)
                held = await self._retry_or_give_up(row, f"error: {error!r}", "bug")
            if held is not None:  # the row blocked its chat before it was marked
                await self._hold(rows[index + 1 :], held, f"behind row {row.id}")
                return

    def _block(self, chat: str, seconds: float) -> None:
        now = self._monotonic()
        if len(self._blocked) > 10_000:
            self._blocked = {c: until for c, until in self._blocked.items() if until > now}
        self._blocked[chat] = max(self._blocked.get(chat, 0.0), now + seconds)

    async def _retry_or_give_up(self, row: OutboxRow, why: str, kind: str) -> float | None:
        """Back off and try the row again, or give it up: a bug after `bug_attempts`
        failures; a passing fault after `fault_attempts`, and only if the platform took
        other messages since this row first failed (an outage is waited out)."""
        failures = self._failures.get((row.id, kind), 0) + 1
        self._failures[(row.id, kind)] = failures
        first = self._first_failed.setdefault(row.id, self._monotonic())
        seconds = float(min(2**failures, 300))
        if kind == "bug":
            hopeless, tries = failures >= self.bug_attempts, self.bug_attempts
        else:
            hopeless = failures >= self.fault_attempts and self._last_ok > first
            tries = self.fault_attempts
        if hopeless:
            went = self._progress.get(row.id, Progress()).sent
            log.error("outbox row %s given up after %s tries: %s", row.id, tries, why)
            await self.store.mark_failed(
                row.id,
                at=self.clock(),
                error=f"given up after {tries} tries ({len(went)} parts out): {why}",
            )
            self._done(row)  # only once marked: a failed mark keeps what went
            return None
        self._block(row.chat, seconds)  # before the mark, so its own next round is not held
        await self.store.mark_retry(row.id, at=self.clock(), retry_at=self._at(seconds), error=why)
        return seconds

    async def _hold(self, rows: list[OutboxRow], seconds: float, why: str) -> None:
        """Hold rows back without counting an attempt (a direct message's tries count)."""
        retry_at = self._at(seconds)
        for row in rows:
            await self.store.mark_retry(
                row.id, at=self.clock(), retry_at=retry_at, error=why, tried=False
            )

    def _at(self, seconds: float) -> datetime:
        return self.clock() + timedelta(seconds=seconds)

    async def _send(self, row: OutboxRow) -> float | None:
        """Send one row and mark it; return seconds to hold the chat's later rows, if any."""
        try:
            reply = from_payload(row.payload)
            # A direct message carries its player's language (/me language:pl), if chosen.
            language = row.payload.get("language")
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            await self.store.mark_failed(row.id, at=self.clock(), error=f"bad payload: {error}")
            return None
        club = await self._club(row.club_id)
        mine = club  # rendered in the person's language; the club's chat hears the club's
        if language and language != club.language:
            mine = dataclasses.replace(club, language=str(language))
        live = row.live if row.coalesce is not None else None
        progress = self._progress.setdefault(row.id, Progress())
        try:
            ids = await self.transport.deliver(row.chat, reply, mine, live, progress)
        except RetryLater as error:
            if error.seconds <= 0:  # a passing fault, unless it never passes
                return await self._retry_or_give_up(row, f"retry: {error}", "fault")
            # The platform said how long: replies to the chat wait too.
            self.transport.pause(row.chat, error.seconds)
            self._block(row.chat, error.seconds)  # before the mark: it is not held by itself
            await self.store.mark_retry(
                row.id,
                at=self.clock(),
                retry_at=self._at(error.seconds),
                error=f"retry: {error}",
            )
            return error.seconds
        except Unreachable as error:
            if row.chat.startswith("user:"):
                if await self._said_in_club(row, club, reply, str(error)):
                    return None
                await self._unreachable(row, club, str(error))
            else:
                await self.store.mark_failed(row.id, at=self.clock(), error=f"{error}")
                self._done(row)
            return None
        except Rejected as error:
            went = progress.sent
            if went:
                # Part of the message is in the chat: it was not "not sent". Record what
                # went out and why the rest did not, instead of calling it failed.
                await self.store.mark_sent(
                    row.id,
                    at=self.clock(),
                    platform_message_id=",".join(went),
                    error=f"rejected after {len(went)} of {progress.parts} parts: {error}",
                )
            else:
                await self.store.mark_failed(row.id, at=self.clock(), error=f"rejected: {error}")
            self._done(row)
            return None
        self._last_ok = self._monotonic()
        # Forgotten only once marked: if marking fails, the retry sends no part again.
        await self.store.mark_sent(row.id, at=self.clock(), platform_message_id=ids or None)
        self._done(row)
        return None

    def _done(self, row: OutboxRow) -> Progress:
        """Forget what the loop kept about a row that is settled; return its progress."""
        for kind in ("bug", "fault"):
            self._failures.pop((row.id, kind), None)
        self._first_failed.pop(row.id, None)
        if len(self._failures) > 10_000 or len(self._first_failed) > 10_000:
            self._failures.clear()  # rows settled elsewhere: their counts start afresh
            self._first_failed.clear()
        if len(self._progress) > 10_000:
            self._progress = {k: v for k, v in self._progress.items() if v.sent}
        return self._progress.pop(row.id, None) or Progress()

    async def _said_in_club(self, row: OutboxRow, club: Club, reply: Reply, why: str) -> bool:
        """Say a private message the person cannot get (closed DMs) in the club's chat,
        where the platform does; return whether it was said there."""
        user = row.chat.removeprefix("user:")
        try:
            ids = await self.transport.deliver_missed(row.club_id, club, user, reply)
        except SendError as error:
            log.info("could not say %s's missed message in the club's chat: %s", user, error)
            return False
        if ids is None:
            return False
        # The ids are the club chat's, not this private chat's: nothing to edit there.
        said = f"unreachable ({why}); said in the club's chat"
        await self.store.mark_sent(row.id, at=self.clock(), error=said)
        self._done(row)
        return True

    async def _unreachable(self, row: OutboxRow, club: Club, why: str) -> None:
        user = row.chat.removeprefix("user:")
        await self._tell(row.club_id, club, user)
        attempts = row.attempts + 1
        retry_at = self.clock() + self.dm_retry
        error = f"unreachable ({why}); told in the club's chat"
        expired = row.expires_at is not None and retry_at >= row.expires_at
        if attempts < self.dm_attempts and not expired:
            await self.store.mark_retry(row.id, at=self.clock(), retry_at=retry_at, error=error)
        else:
            await self.store.mark_failed(row.id, at=self.clock(), error=error)
            self._done(row)

    async def _tell(self, club_id: int, club: Club, user: str) -> None:
        """Mention the person in the club's chat, unless they were told recently."""
        key = (club_id, user)
        now = self._monotonic()
        if self._told.get(key, 0.0) > now:
            return
        try:
            await self.transport.tell_unreachable(club_id, club, user)
        except RetryLater as error:
            log.info("could not tell %s in the club's chat yet: %s", user, error)
            return
        except Exception:
            log.exception("could not tell %s in the club's chat", user)
            return
        if len(self._told) > 10_000:
            self._told = {k: at for k, at in self._told.items() if at > now}
        self._told[key] = now + self.tell_again_after

    async def _club(self, club_id: int) -> Club:
        cached = self._clubs.get(club_id)
        now = self._monotonic()
        if cached is not None and cached[1] > now:
            return cached[0]
        async with self.uow_factory() as uow:
            club = await uow.clubs.get(club_id)
        self._clubs[club_id] = (club, now + 60.0)  # a /club change shows within a minute
        return club
