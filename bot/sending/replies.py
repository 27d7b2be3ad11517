"""Reply or queue: a command's answer goes out at once, or through the outbox.

An adapter answers a command in its chat right away when it can. A reply may carry the
command's own announcement (`Response.held`, its row leased to the reply): once the
reply went out where the chat sees it the row is marked sent with it, otherwise (also
when only its first parts went: a repeated first part is better than a lost tail) it is
released to the outbox sender. A reply that could not go
now is queued as an outbox row of its own, unless it is a secret (it would be shown
later, maybe where it must not), an announcement already queued, or partly out already.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime

from commands.dispatch import Response
from commands.replies import to_payload
from storage.outbox import OutboxStore
from storage.unit_of_work import SqlUnitOfWorkFactory

log = logging.getLogger("clubtd.replies")


class ReplyOutbox:
    """Settle and queue one platform's replies; cheap to build where it is needed."""

    def __init__(
        self,
        platform: str,
        uow_factory: SqlUnitOfWorkFactory,
        outbox: OutboxStore | None,
        clock: Callable[[], datetime],
    ) -> None:
        self.platform = platform
        self.uow_factory = uow_factory
        self.outbox = outbox
        self.clock = clock

    async def settle(self, response: Response, sent: str | None) -> None:
        """Mark the announcement a reply carries sent with it, or release it.

        `sent` holds the reply's message ids ("" when the platform gave none); None
        means the reply did not go out where the chat sees it, so the sender posts them.
        """
        if self.outbox is None or not response.held:
            return
        at = self.clock()
        for row_id in response.held:
            if sent is None:
                await self.outbox.release(row_id, at=at)
            else:
                await self.outbox.mark_sent(row_id, at=at, platform_message_id=sent or None)

    async def queue(
        self, chat: str, response: Response, why: str, *, partly: bool = False
    ) -> bool:
        """Hand a reply that could not go now to the outbox sender; return whether a row
        was queued for it.

        `partly`: some of its parts are in the chat already. It is not queued again
        (that would repeat them); the announcement it carries goes to the sender all the
        same, whole: its later parts may be among those that did not go.

        A reply that says more than the announcement it carries (/reinstate's lines for
        the director) goes in that announcement's place, so no part of it is lost and
        nothing is said twice.
        """
        if not partly and not response.reply.secret and await self._in_place(response):
            log.info("a reply in %s is queued in its announcement's place: %s", chat, why)
            return True
        await self.settle(response, None)
        if response.reply.secret:
            log.warning("a secret reply in %s was not sent (%s); it is not queued", chat, why)
            return False
        if response.held:
            return False  # the reply is an announcement already queued: the sender posts it
        if partly:
            log.warning("a reply in %s went out in part (%s)", chat, why)
            return False
        if response.club_id is None:
            log.warning("a reply in %s is lost (%s): no club to queue it for", chat, why)
            return False
        log.info("a reply in %s is queued in the outbox: %s", chat, why)
        async with self.uow_factory() as uow:
            await uow.outbox.add(
                club_id=response.club_id,
                platform=self.platform,
                chat=chat,
                payload=to_payload(response.reply),
                created_at=self.clock(),
            )
            await uow.commit()
        return True

    async def _in_place(self, response: Response) -> bool:
        """Put a reply that says more than the announcement it carries in its place;
        False when it says just that (the announcement goes to the sender as it is)."""
        if self.outbox is None or not response.held or not response.says_more:
            return False
        (row_id,) = response.held  # a reply carries one announcement (outgoing.rows)
        said = to_payload(response.reply)
        language = (await self.outbox.payloads([row_id])).get(row_id, {}).get("language")
        await self.outbox.release_as(
            row_id, {**said, **({"language": language} if language else {})}, at=self.clock()
        )
        return True
