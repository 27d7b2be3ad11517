"""The outbox rows one command queues, and which of them is its reply.

Pure: the session looks up the club's chats, the players' accounts and languages and
the mentions' accounts, then hands them here. A notice goes to every chat of the club
(the console's one line per event, the chat platforms' gathered post) or to each
account of its player. The first message of the command's own act to the chat the
command came from is the reply there, when the handler marked its reply `announced`:
that row is held for the adapter (`REPLY_HOLD`), never compared with the reply.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from commands import mentions, quiet
from commands.capabilities import bind
from commands.notices import Notice
from commands.replies import Reply, to_payload
from tournament.club import ChatRef
from tournament.model import PlayerId

# How long an announcement the reply carries waits for the adapter to confirm the reply
# went out; after that the outbox sender posts it (the process may have died).
REPLY_HOLD = timedelta(minutes=2)


@dataclass(frozen=True, slots=True)
class Outgoing:
    """A command's outbox rows, and the reply one of them is (None: none is)."""

    rows: list[dict[str, Any]]
    answer: Reply | None = None  # the carried announcement, then the reply's aside
    says_more: bool = False  # the answer has an aside: queued, it takes the row's place


@dataclass(frozen=True, slots=True)
class Audience:
    """Who hears a command's notices: the club's chats, and each player's accounts."""

    chats: Sequence[tuple[str, str]]  # (platform, chat)
    accounts: Mapping[PlayerId, Sequence[tuple[str, str]]]  # player: (platform, user)
    languages: Mapping[PlayerId, str | None]


def rows(
    plan: Sequence[tuple[Notice, bool]],
    audience: Audience,
    found: mentions.Addresses,
    *,
    club_id: int,
    now: datetime,
    origin: tuple[str, str],
    reply: Reply | None,
) -> Outgoing:
    """Return the rows of `plan` (each notice, and whether it is the chat platforms'
    gathered form) for their audience, and the row that is the reply, if any."""
    answering = reply is not None and reply.announced and not reply.private
    answer: Reply | None = None
    out: list[dict[str, Any]] = []
    for notice, chatty in plan:
        for platform, chat, owner in _targets(notice, chatty, audience):
            addressed = bind(mentions.address(notice.reply, platform, found), club_id, owner)
            payload = to_payload(addressed)
            language = audience.languages.get(notice.player) if notice.player else None
            if language:
                payload["language"] = language  # /me language:pl
            carried = answering and notice.answers and (platform, chat) == origin
            if carried and reply is not None:
                answering = False  # one message per event: the first is the reply
                answer = Reply(addressed.parts + reply.aside, addressed.buttons)
            out.append(
                {
                    "club_id": club_id,
                    "platform": platform,
                    "chat": chat,
                    "payload": payload,
                    "created_at": now,
                    "coalesce": notice.coalesce,
                    "expires_at": notice.expires_at,
                    "held_until": now + REPLY_HOLD if carried else None,
                }
            )
    says_more = answer is not None and reply is not None and bool(reply.aside)
    return Outgoing(out, answer, says_more)


def _targets(
    notice: Notice, chatty: bool, audience: Audience
) -> list[tuple[str, str, str | None]]:
    """Return (platform, chat, the account its buttons are for) for one notice: a
    player's own message carries buttons only that player can use, on each account."""
    if notice.player is not None:
        return [
            (platform, str(ChatRef.of_user(user)), user)
            for platform, user in audience.accounts.get(notice.player, [])
        ]
    return [(p, c, None) for p, c in audience.chats if (p in quiet.CHAT_PLATFORMS) == chatty]
