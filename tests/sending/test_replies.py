"""Reply or queue, on a real database: what a reply that went out (or did not) does to
the announcements it carries, and when a failed reply becomes an outbox row."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.sending.replies import ReplyOutbox
from commands.dispatch import Response
from commands.replies import Reply, msg, say, to_payload
from storage import tables as t
from storage.outbox import OutboxStore
from storage.unit_of_work import unit_of_work_factory

NOW = datetime(2026, 1, 31, 20, 0, tzinfo=UTC)


async def _held(engine: AsyncEngine) -> Response:
    """Queue an announcement leased to a reply that says the same, as a command does."""
    reply = say("help.title")
    async with unit_of_work_factory(engine)() as uow:
        club = await uow.clubs.add("Club", "UTC", "en", NOW)
        (row_id,) = await uow.outbox.add_many(
            [
                {
                    "club_id": club.id,
                    "platform": "fake",
                    "chat": "g",
                    "payload": to_payload(reply),
                    "created_at": NOW,
                    "held_until": NOW + timedelta(minutes=2),
                }
            ]
        )
        await uow.commit()
    return Response(reply, "en", "UTC", club.id, held=(row_id,))


async def _rows(engine: AsyncEngine) -> list[Any]:
    async with engine.connect() as conn:
        return list(await conn.execute(select(t.outbox).order_by(t.outbox.c.id)))


def _replies(engine: AsyncEngine) -> ReplyOutbox:
    return ReplyOutbox("fake", unit_of_work_factory(engine), OutboxStore(engine), lambda: NOW)


async def _claimable(engine: AsyncEngine) -> int:
    return len(await OutboxStore(engine).claim("fake", now=NOW, limit=10))


async def test_a_reply_that_went_out_marks_what_it_carries_sent(engine: AsyncEngine) -> None:
    response = await _held(engine)
    await _replies(engine).settle(response, "41,42")
    (row,) = await _rows(engine)
    assert (row.status, row.platform_message_id) == ("sent", "41,42")
    assert await _claimable(engine) == 0


async def test_a_reply_that_did_not_go_out_releases_what_it_carries(engine: AsyncEngine) -> None:
    response = await _held(engine)
    assert await _claimable(engine) == 0  # leased to the reply
    await _replies(engine).settle(response, None)
    assert await _claimable(engine) == 1  # the sender posts it now


async def test_a_failed_reply_is_queued_as_a_row_of_its_own(engine: AsyncEngine) -> None:
    response = dataclasses.replace(await _held(engine), held=())
    kept = await _replies(engine).queue("g", response, "429")
    assert kept
    _, second = await _rows(engine)
    assert (second.chat, second.payload) == ("g", to_payload(response.reply))


@pytest.mark.parametrize("says_more", [True, False])
async def test_a_failed_reply_that_says_more_takes_its_announcements_place(
    engine: AsyncEngine, says_more: bool
) -> None:
    """/reinstate's reply is the club's announcement and the director's aside: queued, it
    goes in the announcement's place (nothing lost, nothing said twice); a reply that
    says just the announcement leaves the row as it is."""
    response = await _held(engine)
    announcement = to_payload(response.reply)
    longer = Reply((*response.reply.parts, msg("help.more")))
    response = dataclasses.replace(response, reply=longer, says_more=says_more)
    assert await _replies(engine).queue("g", response, "network") is says_more
    (row,) = await _rows(engine)
    assert row.payload == (to_payload(longer) if says_more else announcement)
    assert await _claimable(engine) == 1  # the sender posts it, whichever it says


@pytest.mark.parametrize("case", ["held", "secret", "partly", "no club"])
async def test_what_a_failed_reply_does_not_queue(engine: AsyncEngine, case: str) -> None:
    response = await _held(engine)
    if case != "held":
        response = dataclasses.replace(response, held=())
    if case == "secret":
        response = dataclasses.replace(
            response, reply=dataclasses.replace(response.reply, secret=True)
        )
    if case == "no club":
        response = dataclasses.replace(response, club_id=None)
    kept = await _replies(engine).queue("g", response, "network", partly=case == "partly")
    assert not kept
    assert len(await _rows(engine)) == 1
    # An announcement the reply carried goes out through the sender all the same.
    assert await _claimable(engine) == (1 if case == "held" else 0)


async def test_a_secret_reply_still_releases_what_it_carries(engine: AsyncEngine) -> None:
    response = await _held(engine)
    secret = dataclasses.replace(response, reply=dataclasses.replace(response.reply, secret=True))
    assert not await _replies(engine).queue("g", secret, "network")
    assert await _claimable(engine) == 1 and len(await _rows(engine)) == 1


async def test_a_reply_out_in_part_leaves_what_it_carries_to_the_sender(
    engine: AsyncEngine,
) -> None:
    """Its tail may be what did not go: a repeated first part beats a lost tail."""
    response = await _held(engine)
    assert not await _replies(engine).queue("g", response, "429", partly=True)
    (row,) = await _rows(engine)  # the reply is not queued again: its first part is out
    assert row.status == "pending" and await _claimable(engine) == 1


async def test_a_late_release_does_not_free_a_row_a_sender_took(engine: AsyncEngine) -> None:
    """The hold ran out, a sender claimed the row; the command's release comes after: the
    row stays that sender's, or a second sender would post it again (bench.load's count)."""
    response = await _held(engine)
    later = NOW + timedelta(minutes=3)
    assert len(await OutboxStore(engine).claim("fake", now=later, limit=10)) == 1
    await _replies(engine).settle(response, None)
    assert await OutboxStore(engine).claim("fake", now=later, limit=10) == []
