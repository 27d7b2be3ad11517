"""Telegram updates -> Invocation -> use case -> reply.

A command message or a button press becomes an `Invocation` and runs through
`commands.dispatch.handle`, deduplicated by `update_id`. A button press is answered
first (Telegram shows a spinner until then), then the command runs as if the presser
typed it. Replies go back at once; one that cannot be sent now (429, network) goes
through the outbox instead, so it is not lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
import warnings
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from datetime import datetime

from telegram import Chat, Message, Update, User
from telegram.constants import ChatType
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter, TelegramError
from telegram.ext import ContextTypes
from telegram.warnings import PTBDeprecationWarning

from bot.telegram_adapter.admins import AdminCache, is_anonymous_admin
from bot.telegram_adapter.delivery import Messenger
from bot.telegram_adapter.formatting import render
from commands.dispatch import Response, handle
from commands.replies import to_payload
from commands.session import CommandConfig, Invocation
from storage.unit_of_work import SqlUnitOfWork

log = logging.getLogger("clubtd.telegram")

PLATFORM = "telegram"
START_AS = "/help"  # what /start (a deep link, the Start button) runs


@dataclass(frozen=True, slots=True)
class Where:
    """Where a command came from, and where its reply goes."""

    chat_id: int
    user_id: int
    private: bool
    reply_to: int | None


def chat_key(chat: Chat, user: User) -> tuple[str, bool]:
    """Return the Invocation chat for a Telegram chat: "user:<id>" when private."""
    if chat.type == ChatType.PRIVATE:
        return f"user:{user.id}", True
    return str(chat.id), False


def command_text(text: str, bot_username: str | None) -> str | None:
    """Return the command to run for a message, or None when it is not for this bot.

    `/cmd@otherbot` is for another bot in the group; `/start` (a deep link or the Start
    button) shows the help.
    """
    stripped = text.strip()
    if not stripped.startswith("/"):
        return stripped
    head, _, rest = stripped.partition(" ")
    name, at, addressee = head.partition("@")
    if at and bot_username and addressee.lower() != bot_username.lower():
        return None
    if name.lower() == "/start":
        return START_AS
    return stripped if not at else f"{name} {rest}".strip()


Poke = Callable[[], object]


class UpdateHandlers:
    """The Application's callbacks for command messages and button presses."""

    def __init__(
        self,
        *,
        uow_factory: Callable[[], SqlUnitOfWork],
        config: CommandConfig,
        clock: Callable[[], datetime],
        messenger: Messenger,
        admins: AdminCache,
        poke: Poke | None = None,
        queued: Callable[[], None] | None = None,
    ) -> None:
        self.uow_factory = uow_factory
        self.config = config
        self.clock = clock
        self.messenger = messenger
        self.admins = admins
        self.poke = poke
        self.queued = queued
        self._locks: dict[int, asyncio.Lock] = {}
        self._holders: dict[int, int] = {}

    async def on_message(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.message
        if message is None or message.text is None or message.from_user is None:
            return
        user = message.from_user
        chat, private = chat_key(message.chat, user)
        if not private and not message.text.lstrip().startswith("/"):
            return  # people talk in the group; only commands are for the bot
        text = command_text(message.text, context.bot.username)
        if text is None:
            return
        async with self._serial(user.id):
            admin = not private and await self._is_admin(message, user)
            inv = Invocation(
                platform=PLATFORM,
                chat=chat,
                user=str(user.id),
                user_name=user.full_name,
                text=text,
                now=self.clock(),
                private=private,
                chat_admin=admin,
                update_id=str(update.update_id),
            )
            where = Where(message.chat.id, user.id, private, message.message_id)
            await self.run(inv, where)

    async def on_callback(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        if query is None:
            return
        try:
            await query.answer()  # first: Telegram shows a spinner until the press is answered
        except TelegramError as error:
            log.info("could not answer a button press: %s", error)
        command = await self.messenger.buttons.command_for(query.data or "")
        if command is None:
            return
        user = query.from_user
        # An old message may be "inaccessible": it still names its chat, not its content.
        under = query.message
        message = under if isinstance(under, Message) else None
        chat_id = under.chat.id if under is not None else user.id
        private = under is None or under.chat.type == ChatType.PRIVATE
        async with self._serial(user.id):
            admin = not private and await self.admins.is_admin(chat_id, user.id)
            inv = Invocation(
                platform=PLATFORM,
                chat=f"user:{user.id}" if private else str(chat_id),
                user=str(user.id),
                user_name=user.full_name,
                text=command,
                now=self.clock(),
                private=private,
                chat_admin=admin,
                update_id=str(update.update_id),
            )
            where = Where(chat_id, user.id, private, under.message_id if under else None)
            response = await self.run(inv, where)
        if response is not None and not response.refused and private and message is not None:
            # The buttons of a private message did their job: take them away.
            with contextlib.suppress(TelegramError):
                await message.edit_reply_markup(reply_markup=None)

    async def run(self, inv: Invocation, where: Where) -> Response | None:
        """Run one command, reply, and tell the scheduler and the outbox sender."""
        response = await handle(inv, uow_factory=self.uow_factory, config=self.config)
        if response is not None:
            if not response.refused and self.poke is not None:
                await _call(self.poke)
            await self.reply(inv, where, response)
        if self.queued is not None:
            self.queued()  # the command may have queued announcements
        return response

    async def reply(self, inv: Invocation, where: Where, response: Response) -> None:
        """Send the reply where the command came from (privately if it is private)."""
        outgoing = render(
            response.reply, response.language, response.timezone, pictures=response.pictures
        )
        if outgoing.empty:
            return
        if response.reply.private and not where.private:
            try:
                await self.messenger.send(where.user_id, outgoing)
                return
            except TelegramError as error:
                # Never started the bot, or any other trouble: answer in the group.
                log.info(
                    "private reply to %s failed (%s): answering in the group", inv.user, error
                )
        try:
            await self.messenger.send(where.chat_id, outgoing, reply_to=where.reply_to)
        except RetryAfter as error:
            self.messenger.pacer.pause(where.chat_id, retry_seconds(error))
            await self._queue(inv, response, f"429 {error}")
        except (Forbidden, BadRequest) as error:
            log.warning("reply to %s in %s refused: %s", inv.user, where.chat_id, error)
        except NetworkError as error:
            await self._queue(inv, response, f"network: {error}")

    async def _queue(self, inv: Invocation, response: Response, why: str) -> None:
        """Hand a reply that could not go now to the outbox sender."""
        if response.club_id is None:
            log.warning("reply to %s lost (%s): no club to queue it for", inv.user, why)
            return
        log.info("reply to %s queued in the outbox: %s", inv.user, why)
        async with self.uow_factory() as uow:
            await uow.outbox.add(
                club_id=response.club_id,
                platform=PLATFORM,
                chat=inv.chat,
                payload=to_payload(response.reply),
                created_at=self.clock(),
            )
            await uow.commit()

    async def _is_admin(self, message: Message, user: User) -> bool:
        if is_anonymous_admin(message):
            return True
        return await self.admins.is_admin(message.chat.id, user.id)

    @contextlib.asynccontextmanager
    async def _serial(self, user_id: int) -> AsyncIterator[None]:
        """Run one person's updates in order (updates are handled concurrently)."""
        lock = self._locks.setdefault(user_id, asyncio.Lock())
        self._holders[user_id] = self._holders.get(user_id, 0) + 1
        try:
            async with lock:
                yield
        finally:
            self._holders[user_id] -= 1
            if not self._holders[user_id]:
                del self._holders[user_id]
                self._locks.pop(user_id, None)


def retry_seconds(error: RetryAfter) -> float:
    """Return the server's retry_after in seconds (an int or a timedelta, by version)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PTBDeprecationWarning)
        value = error.retry_after
    seconds = value.total_seconds() if hasattr(value, "total_seconds") else float(value)
    return max(seconds, 0.0)


async def _call(poke: Poke) -> None:
    try:
        result = poke()
        if inspect.isawaitable(result):
            await result
    except Exception:
        log.exception("poke failed")
