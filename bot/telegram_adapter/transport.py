"""Telegram as a transport of the shared outbox sender (`bot.sending`).

It renders a row's reply as Telegram HTML, sends it in parts (or edits the live message
in place) and maps Telegram's errors to the neutral ones: a 429 is `RetryLater` at the
server's `retry_after`, a 403 in a private chat `Unreachable` (the person never started
the bot), any other refusal `Rejected`, a network error or a 5xx `RetryLater` with the
loop's backoff. Replies to commands go through `send`, with the same errors. A group
that became a supergroup is relinked here and sent to there. Someone who never started
the bot is mentioned in the club's groups with a deep link.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import logging
import warnings
from collections.abc import Awaitable, Callable, Iterator

from telegram.error import BadRequest, ChatMigrated, Forbidden, RetryAfter, TelegramError
from telegram.warnings import PTBDeprecationWarning

from bot.sending.transport import Progress, Rejected, RetryLater, Unreachable, whom_to_tell
from bot.telegram_adapter.admins import with_admins
from bot.telegram_adapter.delivery import Messenger
from bot.telegram_adapter.formatting import Outgoing, render
from commands.catalog import template
from commands.rendering import escape
from commands.replies import Reply
from storage.unit_of_work import SqlUnitOfWorkFactory
from tournament.club import Club

log = logging.getLogger("clubtd.telegram.send")

PLATFORM = "telegram"

START_BOT_KEY = "telegram.start_bot"
DEEP_LINK = "https://t.me/{username}?start=hi"

Moved = Callable[[int, int], Awaitable[None]]


class TelegramTransport:
    """Put outbox rows on Telegram through the `Messenger` (which paces and records)."""

    platform = PLATFORM

    def __init__(
        self,
        messenger: Messenger,
        uow_factory: SqlUnitOfWorkFactory,
        *,
        max_wait: float = 1.5,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.messenger = messenger
        self.uow_factory = uow_factory
        self.max_wait = max_wait
        self._sleep = sleep
        # Relinks a chat Telegram moved (a group became a supergroup); set by the service.
        self.moved: Moved | None = None

    def delay(self, chat: str) -> float:
        try:
            return self.messenger.delay(chat_id_of(chat))
        except ValueError:
            return 0.0  # a chat that is no chat: `deliver` refuses it

    def pause(self, chat: str, seconds: float) -> None:
        with contextlib.suppress(ValueError):  # a chat that is no chat is never sent to
            self.messenger.pause(chat_id_of(chat), seconds)

    async def deliver(
        self, chat: str, reply: Reply, club: Club, live: str | None, progress: Progress
    ) -> str:
        try:
            chat_id = chat_id_of(chat)
        except ValueError as error:
            raise Rejected(f"bad chat {chat!r}") from error
        reply = await with_admins(self.messenger.bot, chat_id, reply)
        outgoing = render(reply, club.language, club.timezone, pictures=club.pictures)
        if outgoing.empty:
            return ""
        if live:
            ids = [int(part) for part in live.split(",") if part.strip().isdigit()]
            with neutral_errors(private=chat_id > 0):
                # A vanished or differently split message: post a new one instead.
                try:
                    if ids and await self._edit(chat_id, ids, reply, club, outgoing):
                        return ",".join(str(i) for i in ids)
                except ChatMigrated as migrated:
                    # The live message stayed in the old group: for us it is gone.
                    chat_id = await self._relink(chat_id, migrated)
        ids = await self.send(chat_id, outgoing, progress=progress)
        return ",".join(str(i) for i in ids)

    async def _edit(
        self, chat_id: int, ids: list[int], reply: Reply, club: Club, outgoing: Outgoing
    ) -> bool:
        """Edit a live message in place: with its pictures, or else as text when that is
        how it was posted (the draw's message, which is the live board from then on)."""
        if await self.messenger.edit(chat_id, ids, outgoing):
            return True
        if not outgoing.photos:
            return False
        text = render(reply, club.language, club.timezone, pictures=False)
        if len(text.chunks) != len(ids):
            return False
        try:
            return await self.messenger.edit(chat_id, ids, text)
        except BadRequest as error:  # a photo message takes no text: post anew
            log.info("cannot edit live message %s as text: %s", ids, error)
            return False

    async def send(
        self,
        chat_id: int,
        outgoing: Outgoing,
        *,
        progress: Progress,
        reply_to: int | None = None,
    ) -> list[int]:
        """Send every part (buttons under the last); return the message ids.

        The parts `progress` holds went out before and are not sent again; each part
        sent is added to it, also when a later one fails.
        """
        progress.parts = len(outgoing.photos) + len(outgoing.chunks)
        sent = [int(i) for i in progress.sent]
        try:
            with neutral_errors(private=chat_id > 0):
                try:
                    return await self.messenger.send(
                        chat_id, outgoing, reply_to=reply_to, sent=sent
                    )
                except ChatMigrated as migrated:
                    new = await self._relink(chat_id, migrated)
                    return await self.messenger.send(new, outgoing, sent=sent)
        finally:
            progress.sent[:] = [str(i) for i in sent]

    async def _relink(self, chat_id: int, migrated: ChatMigrated) -> int:
        """The group became a supergroup and we missed the service message: relink the
        club (its later rows follow) and return the new chat, where this one goes."""
        new = int(migrated.new_chat_id)
        log.warning("chat %s moved to %s: relinking and sending there", chat_id, new)
        if self.moved is not None:
            await self.moved(chat_id, new)
        return new

    async def deliver_missed(
        self, club_id: int, club: Club, user: str, reply: Reply
    ) -> str | None:
        """Not in the group: someone who never started the bot is asked to start it."""
        return None

    async def tell_unreachable(self, club_id: int, club: Club, user: str) -> None:
        """Ask someone who never started the bot to start it, in the club's groups."""
        groups, name = await whom_to_tell(self.uow_factory, PLATFORM, club_id, user)
        text = start_bot_text(club.language, user, name, self.messenger.bot.username)
        told = False
        for group in groups:
            try:
                group_id = chat_id_of(group)
                delay = self.messenger.delay(group_id)
                if delay > self.max_wait:
                    continue  # the next try of the direct message tells them
                await self._sleep(delay)
                await self.messenger.send(group_id, Outgoing((text,), ()))
            except (TelegramError, ValueError) as error:
                log.warning("could not tell %s in %s to start the bot: %s", user, group, error)
                continue
            told = True
        if groups and not told:
            raise RetryLater(self.max_wait, "no group of the club could be told now")


@contextlib.contextmanager
def neutral_errors(*, private: bool) -> Iterator[None]:
    """Turn Telegram's errors into the shared sending layer's (see the module doc)."""
    try:
        yield
    except RetryAfter as error:
        raise RetryLater(retry_seconds(error), f"429: {error}") from error
    except Forbidden as error:
        if private:
            raise Unreachable(f"403: {error}") from error
        raise Rejected(f"403: {error}") from error
    except BadRequest as error:
        raise Rejected(f"400: {error}") from error
    except TelegramError as error:  # NetworkError, TimedOut, a 5xx: worth another try
        raise RetryLater(0.0, f"{error!r}") from error


def retry_seconds(error: RetryAfter) -> float:
    """Return the server's retry_after in seconds (an int or a timedelta, by version)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PTBDeprecationWarning)
        value = error.retry_after
    seconds = value.total_seconds() if hasattr(value, "total_seconds") else float(value)
    return max(seconds, 0.0)


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
