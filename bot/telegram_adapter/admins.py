"""Who administers a group: getChatMember, cached briefly; anonymous admins recognised."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from telegram import Bot, ChatMember, Message
from telegram.error import TelegramError

from commands import mentions
from commands.replies import Reply

log = logging.getLogger("clubtd.telegram")

# Telegram's "Group" user: an administrator who posts anonymously, as the group itself.
ANONYMOUS_ADMIN_ID = 1087968824
ADMIN_STATUSES = frozenset({ChatMember.ADMINISTRATOR, ChatMember.OWNER})


def is_anonymous_admin(message: Message) -> bool:
    """Return whether a group message was sent by an anonymous administrator."""
    user = message.from_user
    sender = message.sender_chat
    return (
        user is not None
        and user.id == ANONYMOUS_ADMIN_ID
        and sender is not None
        and sender.id == message.chat.id
    )


class AdminCache:
    """Answer "does this user administer this group?" with at most one call a minute."""

    def __init__(
        self,
        bot: Bot,
        *,
        ttl: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
        size: int = 4096,
    ) -> None:
        self._bot = bot
        self._ttl = ttl
        self._clock = clock
        self._size = size
        self._known: dict[tuple[int, int], tuple[bool, float]] = {}

    async def is_admin(self, chat_id: int, user_id: int) -> bool:
        key = (chat_id, user_id)
        now = self._clock()
        cached = self._known.get(key)
        if cached is not None and cached[1] > now:
            return cached[0]
        try:
            member = await self._bot.get_chat_member(chat_id, user_id)
        except TelegramError as error:
            # Not cached: the next command asks again. Meanwhile no admin rights.
            log.warning("getChatMember %s/%s failed: %s", chat_id, user_id, error)
            return False
        admin = member.status in ADMIN_STATUSES
        if len(self._known) >= self._size:
            self._known = {k: v for k, v in self._known.items() if v[1] > now}
            if len(self._known) >= self._size:
                self._known.clear()
        self._known[key] = (admin, now + self._ttl)
        return admin

    def forget(self, chat_id: int, user_id: int) -> None:
        self._known.pop((chat_id, user_id), None)


async def with_admins(bot: Bot, chat_id: int, reply: Reply) -> Reply:
    """Add a group's administrators (its club's directors on Telegram) to the reply's
    call to the directors, so a dispute pings them; the reply as it is elsewhere."""
    if chat_id >= 0 or not mentions.calls_directors(reply):
        return reply
    try:
        admins = await bot.get_chat_administrators(chat_id)
    except TelegramError as error:
        log.warning("getChatAdministrators %s failed: %s", chat_id, error)
        return reply
    people = [str(m.user.id) for m in admins if not m.user.is_bot]
    return mentions.with_directors(reply, people)
