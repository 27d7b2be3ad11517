"""Telegram updates -> Invocation -> use case -> reply.

A command message or a button press becomes an `Invocation` and runs through
`commands.dispatch.handle`, deduplicated by `update_id`. A button press is answered
first (Telegram shows a spinner until then), then the command runs as if the presser
typed it. Each person is throttled; replies share the pacer with the outbox sender and
go at once when the chat's limits allow, else through the outbox, so none is lost.
A message sent on behalf of a chat (`sender_chat`) is accepted only from the group's
own anonymous administrator, who acts as a director of that group and never as a
player; a group that becomes a supergroup takes its club along.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime

from telegram import Chat, Message, Update, User
from telegram.constants import ChatType, ParseMode
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from bot.sending.languages import ChatLanguages
from bot.sending.replies import ReplyOutbox
from bot.sending.running import Poke, run_command
from bot.sending.serial import PerKey
from bot.sending.transport import Progress, Rejected, RetryLater, SendError, Unreachable
from bot.telegram_adapter.admins import AdminCache, is_anonymous_admin, with_admins
from bot.telegram_adapter.formatting import MESSAGE_LIMIT, length, render
from bot.telegram_adapter.transport import PLATFORM, TelegramTransport
from bot.throttle import Throttle, Verdict
from commands.config import CommandConfig
from commands.dispatch import Response
from commands.rendering import escape
from commands.replies import Name, say
from commands.session import Invocation
from storage.outbox import OutboxStore
from storage.unit_of_work import SqlUnitOfWorkFactory

log = logging.getLogger("clubtd.telegram")

# Look-ups a group member asks: answered privately, the group told in one line (a quiet
# group, issue 20); /me and /help answers are private by themselves.
LOOKUPS = frozenset({"standings", "bracket", "schedule", "ranking", "rules", "me", "help"})
START_AS = "/help"  # what /start (a deep link, the Start button) runs
REPLY_MAX_WAIT = 2.0  # seconds a reply may wait for the chat's limits; longer: the outbox


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


class UpdateHandlers:
    """The Application's callbacks for command messages and button presses."""

    def __init__(
        self,
        *,
        uow_factory: SqlUnitOfWorkFactory,
        config: CommandConfig,
        clock: Callable[[], datetime],
        transport: TelegramTransport,
        admins: AdminCache,
        poke: Poke | None = None,
        queued: Callable[[], None] | None = None,
        outbox: OutboxStore | None = None,
        throttle: Throttle | None = None,
        languages: ChatLanguages | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        reply_max_wait: float = REPLY_MAX_WAIT,
    ) -> None:
        self.uow_factory = uow_factory
        self.config = config
        self.clock = clock
        self.transport = transport
        self.messenger = transport.messenger
        self.admins = admins
        self.poke = poke
        self.queued = queued
        self.outbox = outbox
        self.throttle = throttle or Throttle()
        self.languages = languages or ChatLanguages(uow_factory, PLATFORM, config.default_language)
        self._sleep = sleep
        self.reply_max_wait = reply_max_wait
        self.replies = ReplyOutbox(PLATFORM, uow_factory, outbox, clock)
        self.serial = PerKey()  # one person's updates in order (they run concurrently)
        self._updated: set[int] = set()  # pressed messages the answer updated in place

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
        # Everyone posting "as a channel" arrives as one shared user (Channel_Bot), and
        # every anonymous admin as one "Group" user: the chat is the identity then.
        as_chat = message.sender_chat is not None
        identity = f"chat:{message.sender_chat.id}" if message.sender_chat else str(user.id)
        where = Where(message.chat.id, user.id, private, message.message_id)
        if not await self._admitted(identity, where):
            return
        async with self.serial.hold(user.id if not as_chat else message.chat.id):
            if as_chat:
                admin = is_anonymous_admin(message)
            else:
                admin = not private and await self._is_admin(message, user)
            inv = Invocation(
                platform=PLATFORM,
                chat=chat,
                user=identity,
                user_name=(message.chat.title or "") if as_chat else user.full_name,
                text=text,
                now=self.clock(),
                private=private,
                chat_admin=admin,
                update_id=str(update.update_id),
                as_chat=as_chat,
                locale=None if as_chat else user.language_code,
            )
            await self.run(inv, where)

    async def on_migrate(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A group became a supergroup (a new chat id): its club link moves along."""
        message = update.message
        if message is None:
            return
        if message.migrate_to_chat_id:
            old, new = message.chat.id, message.migrate_to_chat_id
        elif message.migrate_from_chat_id:
            old, new = message.migrate_from_chat_id, message.chat.id
        else:
            return
        await self.move_chat(old, new)

    async def move_chat(self, old: int, new: int) -> None:
        """Relink a club's chat that Telegram moved to a new id (logged in the audit)."""
        async with self.uow_factory() as uow:
            club_id = await uow.clubs.move_chat(PLATFORM, str(old), str(new))
            if club_id is not None:
                await uow.audit.add(
                    club_id=club_id,
                    tournament_id=None,
                    actor="telegram",
                    action="chat_moved",
                    detail={"from": str(old), "to": str(new)},
                    at=self.clock(),
                )
            await uow.commit()
        if club_id is not None:
            log.info("club %s: chat %s became supergroup %s", club_id, old, new)

    async def _admitted(self, identity: str, where: Where) -> bool:
        """Apply the per-person throttle; the first refusal is said politely, once, in
        the chat's language."""
        verdict = self.throttle.allow(identity)
        if verdict is Verdict.RUN:
            return True
        if verdict is Verdict.REFUSE:
            chat = f"user:{where.user_id}" if where.private else str(where.chat_id)
            language = await self.languages.of(chat)
            outgoing = render(say("throttled"), language, self.config.default_timezone)
            with contextlib.suppress(TelegramError):
                if self.messenger.delay(where.chat_id) <= self.reply_max_wait:
                    await self._sleep(self.messenger.delay(where.chat_id))
                    await self.messenger.send(where.chat_id, outgoing, reply_to=where.reply_to)
        log.info("throttled %s in %s", identity, where.chat_id)
        return False

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
        where = Where(chat_id, user.id, private, under.message_id if under else None)
        if not await self._admitted(str(user.id), where):
            return
        async with self.serial.hold(user.id):
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
                pressed=True,
                locale=user.language_code,
            )
            response = await self.run(inv, where, pressed=message)
        if (
            response is not None
            and not response.refused
            and message is not None
            and id(message) not in self._updated
        ):
            # Answered apart (privately, or with pictures): the used buttons still go.
            with contextlib.suppress(TelegramError):
                await message.edit_reply_markup(reply_markup=None)
        self._updated.discard(id(message))

    async def run(
        self, inv: Invocation, where: Where, *, pressed: Message | None = None
    ) -> Response | None:
        """Run one command, reply, and tell the scheduler and the outbox sender.
        `pressed`: the message whose button ran it, which the answer updates."""
        response = await run_command(
            inv, uow_factory=self.uow_factory, config=self.config, poke=self.poke
        )
        if response is not None:
            if pressed is not None and await self._update_pressed(inv, pressed, response):
                self._updated.add(id(pressed))
            else:
                await self.reply(inv, where, response)
        if self.queued is not None:
            self.queued()  # the command may have queued announcements
        return response

    async def reply(self, inv: Invocation, where: Where, response: Response) -> None:
        """Send the reply where the command came from (privately if it is private).

        The reply waits its turn with the pacer like any message; a chat that must wait
        longer gets it through the outbox. Announcements the reply carries (`held`) are
        marked sent only once it went out, else handed to the outbox sender.
        """
        if not where.private:  # a dispute answered in the group pings its admins too
            reply = await with_admins(self.messenger.bot, where.chat_id, response.reply)
            response = dataclasses.replace(response, reply=reply)
        outgoing = render(
            response.reply, response.language, response.timezone, pictures=response.pictures
        )
        if outgoing.empty:
            await self._settle(response, None)
            return
        private = response.reply.private or (
            _command(inv.text) in LOOKUPS and not response.refused and not response.held
        )
        if private and not where.private:
            try:
                if await self._paced(where.user_id):
                    await self.transport.send(where.user_id, outgoing, progress=Progress())
                    await self._settle(response, None)  # the group did not see it
                    if not response.refused and not inv.pressed:
                        await self._said_privately(inv, where, response)
                    return
            except SendError as error:
                # Never started the bot, or any other trouble: answer in the group.
                log.info(
                    "private reply to %s failed (%s): answering in the group", inv.user, error
                )
            if response.reply.secret:
                # A link code is never shown in a group: say how to get it privately.
                outgoing = render(
                    say("secret_needs_private_chat"), response.language, response.timezone
                )
        progress = Progress()
        try:
            if not await self._paced(where.chat_id):
                await self._queue(inv, response, "paced: the chat's send limit")
                return
            await self.transport.send(
                where.chat_id, outgoing, progress=progress, reply_to=where.reply_to
            )
        except RetryLater as error:
            if error.seconds > 0:
                self.messenger.pause(where.chat_id, error.seconds)
            await self._queue(inv, response, str(error), sent=progress.sent)
        except (Unreachable, Rejected) as error:
            log.warning("reply to %s in %s refused: %s", inv.user, where.chat_id, error)
            await self._settle(response, progress.sent)
        else:
            await self._settle(response, progress.sent)

    async def _update_pressed(self, inv: Invocation, pressed: Message, response: Response) -> bool:
        """Show a button's answer in the message it is under: that message's text, then
        who pressed and what happened, the used buttons gone (the answer's own in their
        place). False when it must go apart: refused, private from a group, pictures, or
        too long for one message; the caller then replies as usual."""
        if response.refused or (response.reply.private and not inv.private):
            return False
        if not pressed.text:
            return False  # its words are not known here: they would be lost
        outgoing = render(
            response.reply, response.language, response.timezone, pictures=response.pictures
        )
        if outgoing.photos or len(outgoing.chunks) != 1:
            return False
        said = f"<b>{escape(inv.user_name, 'html')}</b> \u25b8 {outgoing.chunks[0]}"
        text = f"{pressed.text_html}\n\n{said}"
        if length(text) > MESSAGE_LIMIT:
            text = said
        if length(text) > MESSAGE_LIMIT:
            return False
        try:
            markup = await self.messenger.markup(outgoing.buttons)
            edited = await pressed.edit_text(text, parse_mode=ParseMode.HTML, reply_markup=markup)
        except TelegramError as error:
            log.info("could not update the pressed message: %s", error)
            return False
        sent = [str(edited.message_id)] if isinstance(edited, Message) else [str(pressed.id)]
        await self._settle(response, sent)
        return True

    async def _said_privately(self, inv: Invocation, where: Where, response: Response) -> None:
        """Tell the group, in one line, that the answer went to the asker privately."""
        line = render(
            say("telegram.sent_privately", name=Name(inv.user_name)),
            response.language,
            response.timezone,
        )
        with contextlib.suppress(TelegramError, SendError):
            if await self._paced(where.chat_id):
                await self.transport.send(
                    where.chat_id, line, progress=Progress(), reply_to=where.reply_to
                )

    async def _paced(self, chat_id: int) -> bool:
        """Wait for the chat's send limits if it is a short wait; False if it is not."""
        delay = self.messenger.delay(chat_id)
        if delay > self.reply_max_wait:
            return False
        if delay > 0:
            await self._sleep(delay)
        return True

    async def _settle(self, response: Response, sent: list[str] | None) -> None:
        """Mark the carried announcements sent with the reply (`sent`: its message ids),
        or give them to the sender (None or none)."""
        await self.replies.settle(response, ",".join(sent) if sent else None)

    async def _queue(
        self, inv: Invocation, response: Response, why: str, *, sent: list[str] | None = None
    ) -> None:
        """Hand a reply that could not go now to the outbox sender; `sent` holds the ids
        of its parts that went out already (the reply is not queued again)."""
        await self.replies.queue(inv.chat, response, f"to {inv.user}: {why}", partly=bool(sent))

    async def _is_admin(self, message: Message, user: User) -> bool:
        if is_anonymous_admin(message):
            return True
        return await self.admins.is_admin(message.chat.id, user.id)


def _command(text: str) -> str:
    """Return the command word of a line: `/standings@clubtd_bot x` -> standings."""
    first = text.strip().split(" ", 1)[0] if text.strip() else ""
    return first.lstrip("/").split("@", 1)[0].lower()
