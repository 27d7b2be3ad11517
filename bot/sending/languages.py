"""Which language to say something in a chat when no command ran to tell (a throttle's
"slow down"): the club's in a chat that belongs to one; in a private chat the person's
own (/me language), else their only club's; else the default.

Answers are kept per chat for `ttl` seconds (like the outbox sender's clubs, so a /club
language change shows within a minute) and at most `size` chats, so saying it again in
a busy chat costs no database query.
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Callable

from storage.unit_of_work import SqlUnitOfWorkFactory

log = logging.getLogger("clubtd.languages")


class ChatLanguages:
    """A small cache of chat -> language for one platform."""

    def __init__(
        self,
        uow_factory: SqlUnitOfWorkFactory,
        platform: str,
        default: str,
        *,
        ttl: float = 60.0,
        size: int = 1024,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.uow_factory = uow_factory
        self.platform = platform
        self.default = default
        self.ttl = ttl
        self.size = size
        self._monotonic = monotonic
        self._known: OrderedDict[str, tuple[str, float]] = OrderedDict()

    async def of(self, chat: str) -> str:
        """Return the language for `chat` ("user:<id>" when private)."""
        now = self._monotonic()
        cached = self._known.get(chat)
        if cached is not None and cached[1] > now:
            self._known.move_to_end(chat)
            return cached[0]
        try:
            language = await self._look_up(chat)
        except Exception:  # saying it in the default language beats not saying it
            log.exception("could not look up the language of %s", chat)
            return self.default
        self._known[chat] = (language, now + self.ttl)
        self._known.move_to_end(chat)
        while len(self._known) > self.size:
            self._known.popitem(last=False)
        return language

    async def _look_up(self, chat: str) -> str:
        async with self.uow_factory() as uow:
            if not chat.startswith("user:"):
                club = await uow.clubs.for_chat(self.platform, chat)
                return club.language if club is not None else self.default
            user = chat.removeprefix("user:")
            clubs = await uow.clubs.for_account(self.platform, user)
            for club in clubs:
                player = await uow.players.by_account(club.id, self.platform, user)
                if player is not None and player.language:
                    return player.language
        return clubs[0].language if len(clubs) == 1 else self.default
