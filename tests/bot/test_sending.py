"""The shared outbox sender against a fake transport, on a real database.

What a transport's neutral errors mean for a row: `RetryLater` holds the chat's later
rows behind it, `Unreachable` tells the person in the club's chat and tries again,
`Rejected` fails the row; a live message key edits the message it replaced.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.sending.outbox import OutboxSender
from bot.sending.transport import Rejected, RetryLater, Unreachable
from commands.replies import Reply, say, to_payload
from storage import tables as t
from storage.outbox import OutboxStore
from storage.unit_of_work import unit_of_work_factory
from tournament.club import Club

NOW = datetime(2026, 1, 31, 20, 0, tzinfo=UTC)


@dataclass
class FakeTransport:
    """Records deliveries; `fail` maps a chat to the errors its next sends raise."""

    platform: str = "fake"
    sent: list[tuple[str, str, str | None]] = field(default_factory=list)
    told: list[str] = field(default_factory=list)
    paused: dict[str, float] = field(default_factory=dict)
    fail: dict[str, list[Exception]] = field(default_factory=dict)

    def delay(self, chat: str) -> float:
        return 0.0

    def pause(self, chat: str, seconds: float) -> None:
        self.paused[chat] = seconds

    async def deliver(self, chat: str, reply: Reply, club: Club, live: str | None) -> str:
        errors = self.fail.get(chat)
        if errors:
            raise errors.pop(0)
        key = reply.parts[0].key  # type: ignore[union-attr]
        self.sent.append((chat, key, live))
        return live or f"m{len(self.sent)}"

    async def tell_unreachable(self, club_id: int, club: Club, user: str) -> None:
        self.told.append(user)


async def _setup(engine: AsyncEngine, rows: list[tuple[str, str, str | None]]) -> None:
    async with unit_of_work_factory(engine)() as uow:
        club = await uow.clubs.add("Club", "UTC", "en", NOW)
        for chat, key, coalesce in rows:
            await uow.outbox.add(
                club_id=club.id,
                platform="fake",
                chat=chat,
                payload=to_payload(say(key)),
                created_at=NOW,
                coalesce=coalesce,
            )
        await uow.commit()


async def _statuses(engine: AsyncEngine) -> list[tuple[str, str]]:
    async with engine.connect() as conn:
        result = await conn.execute(
            select(t.outbox.c.chat, t.outbox.c.status).order_by(t.outbox.c.id)
        )
        return [(r.chat, r.status) for r in result]


def _sender(engine: AsyncEngine, transport: FakeTransport) -> OutboxSender:
    return OutboxSender(OutboxStore(engine), transport, unit_of_work_factory(engine), lambda: NOW)


async def test_retry_later_holds_the_chats_later_rows_in_order(engine: AsyncEngine) -> None:
    transport = FakeTransport(fail={"g": [RetryLater(7.0, "429")]})
    await _setup(
        engine, [("g", "help.title", None), ("g", "help.me", None), ("h", "help.me", None)]
    )
    await _sender(engine, transport).run_once()
    assert transport.sent == [("h", "help.me", None)]  # another chat is not held
    assert transport.paused == {"g": 7.0}
    assert await _statuses(engine) == [("g", "pending"), ("g", "pending"), ("h", "sent")]


async def test_unreachable_person_is_told_and_rejected_rows_fail(engine: AsyncEngine) -> None:
    transport = FakeTransport(fail={"user:5": [Unreachable("50007")], "g": [Rejected("400")]})
    await _setup(engine, [("user:5", "help.me", None), ("g", "help.title", None)])
    await _sender(engine, transport).run_once()
    assert transport.told == ["5"]
    assert await _statuses(engine) == [("user:5", "pending"), ("g", "failed")]


async def test_a_live_message_is_edited_in_place(engine: AsyncEngine) -> None:
    transport = FakeTransport()
    sender = _sender(engine, transport)
    await _setup(engine, [("g", "help.title", "standings:1")])
    await sender.run_once()
    await _setup(engine, [("g", "help.me", "standings:1")])
    await sender.run_once()
    assert transport.sent == [("g", "help.title", None), ("g", "help.me", "m1")]
