"""The Telegram outbox sender (ARCHITECTURE idea 2).

It claims due rows, sends each chat's rows in order within Telegram's limits, and
marks every row: sent only once Telegram accepted it; back to the queue after a 429
(at the server's `retry_after`) or a network error (with backoff), holding that chat's
later rows behind it so the order stays; failed only when Telegram refuses it for good.
A row with a coalesce key (the live standings) edits the message it replaces.
A direct message to someone who never started the bot (403) becomes a short mention in
the club's group with a deep link; the direct message is tried again a few times.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import logging
import time
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta

from telegram.error import BadRequest, ChatMigrated, Forbidden, RetryAfter, TelegramError

from bot.telegram_adapter.delivery import Messenger
from bot.telegram_adapter.formatting import Outgoing, render
from bot.telegram_adapter.updates import PLATFORM, retry_seconds
from commands.catalog import template
from commands.rendering import escape
from commands.replies import from_payload
from storage.outbox import OutboxRow, OutboxStore
from storage.unit_of_work import SqlUnitOfWork
from tournament.club import Club

log = logging.getLogger("clubtd.telegram.outbox")

START_BOT_KEY = "telegram.start_bot"
DEEP_LINK = "https://t.me/{username}?start=hi"


class OutboxSender:
    """Drain the Telegram rows of the outbox, politely and without losing any."""

    def __init__(
        self,
        store: OutboxStore,
        messenger: Messenger,
        uow_factory: Callable[[], SqlUnitOfWork],
        clock: Callable[[], datetime],
        *,
        batch: int = 20,
        interval: float = 1.0,
        max_wait: float = 1.5,
        chat_budget: float = 4.0,
        dm_retry: timedelta = timedelta(minutes=2),
        dm_attempts: int = 5,
        tell_again_after: float = 3600.0,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = store
        self.messenger = messenger
        self.uow_factory = uow_factory
        self.clock = clock
        self.batch = batch
        self.interval = interval
        self.max_wait = max_wait
        self.chat_budget = chat_budget
        self.dm_retry = dm_retry
        self.dm_attempts = dm_attempts
        self.tell_again_after = tell_again_after
        self._sleep = sleep
        self._monotonic = monotonic
        self._wake = asyncio.Event()
        self._stopping = False
        self._task: asyncio.Task[None] | None = None
        self._failures: dict[int, int] = {}
        self._partial: dict[int, list[int]] = {}  # row id -> ids of the parts already sent
        self._clubs: dict[int, tuple[Club, float]] = {}
        self._told: dict[tuple[int, str], float] = {}
        # Relinks a chat Telegram moved (a group became a supergroup); set by the service.
        self.moved: Callable[[int, int], Awaitable[None]] | None = None

    # -- the loop --

    def start(self) -> None:
        if self._task is None:
            self._stopping = False
            self._task = asyncio.create_task(self.run(), name="clubtd-telegram-outbox")

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
        """Look at the outbox now (a command or a sweep queued something)."""
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
        rows = await self.store.claim(PLATFORM, now=self.clock(), limit=self.batch)
        by_chat: dict[str, list[OutboxRow]] = {}
        for row in rows:
            by_chat.setdefault(row.chat, []).append(row)
        await asyncio.gather(*(self._drain_chat(chat, rs) for chat, rs in by_chat.items()))
        return len(rows)

    # -- one chat, in order --

    async def _drain_chat(self, chat: str, rows: list[OutboxRow]) -> None:
        try:
            chat_id = chat_id_of(chat)
        except ValueError:
            for row in rows:
                await self.store.mark_failed(row.id, at=self.clock(), error=f"bad chat {chat!r}")
            return
        started = self._monotonic()
        for index, row in enumerate(rows):
            delay = self.messenger.pacer.delay(chat_id)
            spent = self._monotonic() - started
            if delay > self.max_wait or spent + delay > self.chat_budget:
                await self._hold(rows[index:], delay, "paced: the chat's send limit")
                return
            if delay > 0:
                await self._sleep(delay)
            try:
                held = await self._send(row, chat_id)
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

    async def _send(self, row: OutboxRow, chat_id: int) -> float | None:
        """Send one row and mark it; return seconds to hold the chat's later rows, if any."""
        try:
            reply = from_payload(row.payload)
        except (KeyError, TypeError, ValueError) as error:
            await self.store.mark_failed(row.id, at=self.clock(), error=f"bad payload: {error}")
            return None
        club = await self._club(row.club_id)
        # A direct message carries its player's language (/me language:pl), if they chose.
        language = str(row.payload.get("language") or club.language)
        outgoing = render(reply, language, club.timezone, pictures=club.pictures)
        if outgoing.empty:
            await self.store.mark_sent(row.id, at=self.clock())
            return None
        try:
            ids = await self._deliver(row, chat_id, outgoing)
        except RetryAfter as error:
            seconds = retry_seconds(error)
            self.messenger.pacer.pause(chat_id, seconds)
            await self.store.mark_retry(
                row.id, at=self.clock(), retry_at=self._at(seconds), error=f"429: {error}"
            )
            return seconds
        except Forbidden as error:
            if row.chat.startswith("user:"):
                await self._not_started(row, club)
                return None
            await self.store.mark_failed(row.id, at=self.clock(), error=f"403: {error}")
            return None
        except BadRequest as error:
            went = self._partial.pop(row.id, None)
            parts = len(outgoing.photos) + len(outgoing.chunks)
            if went:
                # Part of the message is in the chat: it was not "not sent". Record what
                # went out and why the rest did not, instead of calling it failed.
                await self.store.mark_sent(
                    row.id,
                    at=self.clock(),
                    platform_message_id=",".join(str(i) for i in went),
                    error=f"400 after {len(went)} of {parts} parts: {error}",
                )
                return None
            await self.store.mark_failed(row.id, at=self.clock(), error=f"400: {error}")
            return None
        except TelegramError as error:  # NetworkError, TimedOut, a 5xx: all worth another try
            seconds = self._backoff(row)
            await self.store.mark_retry(
                row.id, at=self.clock(), retry_at=self._at(seconds), error=f"{error!r}"
            )
            return seconds
        self._failures.pop(row.id, None)
        await self.store.mark_sent(
            row.id, at=self.clock(), platform_message_id=",".join(str(i) for i in ids)
        )
        return None

    async def _deliver(self, row: OutboxRow, chat_id: int, outgoing: Outgoing) -> list[int]:
        if row.coalesce is not None:
            live = await self.store.live_message(PLATFORM, row.chat, row.coalesce)
            ids = [int(part) for part in (live or "").split(",") if part.strip().isdigit()]
            # A vanished or differently split message: post a new one instead.
            if ids and await self.messenger.edit(chat_id, ids, outgoing):
                return ids
        # The parts that went out before a failure are not sent again on the retry.
        sent = self._partial.setdefault(row.id, [])
        try:
            ids = await self.messenger.send(chat_id, outgoing, sent=sent)
        except ChatMigrated as migrated:
            # The group became a supergroup and we missed the service message: relink the
            # club (its later rows follow), and send this one there.
            new = int(migrated.new_chat_id)
            log.warning("chat %s moved to %s: relinking and sending there", chat_id, new)
            if self.moved is not None:
                await self.moved(chat_id, new)
            ids = await self.messenger.send(new, outgoing, sent=sent)
        self._partial.pop(row.id, None)
        return ids

    def _backoff(self, row: OutboxRow) -> float:
        failures = self._failures.get(row.id, 0) + 1
        self._failures[row.id] = failures
        if len(self._failures) > 10_000:
            self._failures.clear()
        return float(min(2**failures, 300))

    # -- 403: the player never started the bot --

    async def _not_started(self, row: OutboxRow, club: Club) -> None:
        user = row.chat.removeprefix("user:")
        await self._tell_in_group(row.club_id, user, club)
        attempts = row.attempts + 1
        retry_at = self.clock() + self.dm_retry
        error = "403: the player has not started the bot; told in the group"
        expired = row.expires_at is not None and retry_at >= row.expires_at
        if attempts < self.dm_attempts and not expired:
            await self.store.mark_retry(row.id, at=self.clock(), retry_at=retry_at, error=error)
        else:
            await self.store.mark_failed(row.id, at=self.clock(), error=error)

    async def _tell_in_group(self, club_id: int, user: str, club: Club) -> None:
        async with self.uow_factory() as uow:
            chats = await uow.clubs.chats(club_id)
            player = await uow.players.by_account(club_id, PLATFORM, user)
        groups = [c for p, c in chats if p == PLATFORM and not c.startswith("user:")]
        name = player.name if player is not None else user
        text = start_bot_text(club.language, user, name, self.messenger.bot.username)
        now = self._monotonic()
        for group in groups:
            key = (club_id, f"{group}:{user}")
            if self._told.get(key, 0.0) > now:
                continue
            try:
                group_id = chat_id_of(group)
                if self.messenger.pacer.delay(group_id) > self.max_wait:
                    continue  # the next try of the direct message tells them
                await self._sleep(self.messenger.pacer.delay(group_id))
                await self.messenger.send(group_id, Outgoing((text,), ()))
            except (TelegramError, ValueError) as error:
                log.warning("could not tell %s in %s to start the bot: %s", user, group, error)
                continue
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


def chat_id_of(chat: str) -> int:
    """Return the Telegram chat id of an outbox chat ("-100123" or "user:42")."""
    return int(chat.removeprefix("user:"))


def start_bot_text(language: str, user: str, name: str, username: str | None) -> str:
    """Return the group message that asks someone to start the bot (HTML)."""
    raw = template(language, START_BOT_KEY)
    link = DEEP_LINK.format(username=username or "")
    mention = f'<a href="tg://user?id={int(user)}">{escape(name, "html")}</a>'
    anchor = f'<a href="{html.escape(link)}">{html.escape(link)}</a>'
    try:
        return html.escape(raw, quote=False).format(name=mention, link=anchor)
    except (KeyError, IndexError, ValueError):
        return f"{mention}: {anchor}"
