"""The small interface an adapter's transport offers the shared sending code.

A transport sends one rendered reply to a chat (or edits the live message it replaced)
and maps its platform's failures to four neutral errors, so the outbox loop decides
what to do without knowing the platform.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from commands.replies import Reply
from storage.unit_of_work import SqlUnitOfWorkFactory
from tournament.club import Club


class SendError(Exception):
    """A send failed; the subclass says what it means for the row."""


class RetryLater(SendError):
    """Rate limited or a passing network fault: try again after `seconds`."""

    def __init__(self, seconds: float, why: str = "") -> None:
        super().__init__(why or f"retry in {seconds:.1f}s")
        self.seconds = max(0.0, seconds)


class Unreachable(SendError):
    """A person cannot be written to privately (never started the bot, DMs closed)."""


class Rejected(SendError):
    """The platform refuses this message for good (bad request, chat gone)."""


@dataclass(slots=True)
class Progress:
    """How far one row's multi-part message got: kept by the outbox loop across retries.

    A transport sets `parts` to how many messages the reply takes, appends each part's
    message id to `sent` as it goes out, and skips the parts `sent` already holds, so a
    retry after a failure in the middle does not post the first parts again.
    """

    sent: list[str] = field(default_factory=list)
    parts: int = 0


class Transport(Protocol):
    """One platform's way of putting an outbox row on the wire."""

    platform: str

    def delay(self, chat: str) -> float:
        """Return how many seconds `chat` must wait before its next message."""
        ...

    def pause(self, chat: str, seconds: float) -> None:
        """Hold a chat back (the server asked for it)."""
        ...

    async def deliver(
        self, chat: str, reply: Reply, club: Club, live: str | None, progress: Progress
    ) -> str:
        """Send (or edit the `live` message ids in place); return the message ids sent.

        `club.language` is the language to render in (a player's own, for their DMs).
        """
        ...

    async def tell_unreachable(self, club_id: int, club: Club, user: str) -> None:
        """Tell a person who cannot be written to privately, in the club's chat.

        Return once told; raise (`RetryLater` when the chat must wait) when nobody was,
        so the next try of the private message tells them.
        """
        ...

    async def deliver_missed(
        self, club_id: int, club: Club, user: str, reply: Reply
    ) -> str | None:
        """Say a private message that could not go (closed DMs) in the club's chat,
        mentioning its person; return the message ids, or None where the platform does
        not (the person is then told to open their private chat)."""
        ...


async def whom_to_tell(
    uow_factory: SqlUnitOfWorkFactory, platform: str, club_id: int, user: str
) -> tuple[list[str], str]:
    """Return the club's shared chats on `platform` and the name of the person with the
    account `user` (the account id when nobody has it): for `tell_unreachable`."""
    async with uow_factory() as uow:
        chats = await uow.clubs.chats(club_id)
        player = await uow.players.by_account(club_id, platform, user)
    shared = [chat for p, chat in chats if p == platform and not chat.startswith("user:")]
    return shared, player.name if player is not None else user
