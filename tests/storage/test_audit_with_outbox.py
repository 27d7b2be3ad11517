"""Audit rows and outbox rows of one command: written together, in order, or not at all.

On PostgreSQL the audit rows, and a save that changes one row, wait for the outbox
insert of the same unit of work, which writes them all (and supersedes older rows of a
coalesce key) in one round trip; the commit writes what is still held. These tests hold
on both databases.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from storage import StaleState
from storage import tables as t
from tests.storage.conftest import (
    NOW,
    UowFactory,
    club_with_players,
    entry,
    load,
    message,
    midway,
    open_matches,
    saved_elsewhere,
    store,
)


async def logged(engine: AsyncEngine) -> list[tuple[str, int]]:
    async with engine.connect() as conn:
        query = select(t.audit_log.c.action, t.audit_log.c.detail).order_by(t.audit_log.c.id)
        return [(r.action, r.detail["n"]) for r in await conn.execute(query)]


async def outbox(engine: AsyncEngine) -> list[tuple[str, str]]:
    async with engine.connect() as conn:
        query = select(t.outbox.c.payload, t.outbox.c.status).order_by(t.outbox.c.id)
        return [(r.payload["text"], r.status) for r in await conn.execute(query)]


async def test_audit_and_messages_of_one_unit_of_work_are_all_written_in_order(
    engine: AsyncEngine, uow_factory: UowFactory
) -> None:
    club_id = await club_with_players(uow_factory, 0)
    async with uow_factory() as uow:
        await uow.outbox.add_many([message(club_id, "board v1", "board")])
        await uow.commit()
    async with uow_factory() as uow:
        await uow.audit.add_many([entry(club_id, "report", 1), entry(club_id, "accept", 2)])
        await uow.audit.add(**entry(club_id, "note", 3))  # type: ignore[arg-type]
        ids = await uow.outbox.add_many(
            [message(club_id, "result"), message(club_id, "board v2", "board")]
        )
        await uow.audit.add(**entry(club_id, "after", 4))  # type: ignore[arg-type]
        await uow.commit()
    assert ids == sorted(ids) and len(set(ids)) == 2
    assert await logged(engine) == [("report", 1), ("accept", 2), ("note", 3), ("after", 4)]
    assert await outbox(engine) == [
        ("board v1", "superseded"),
        ("result", "pending"),
        ("board v2", "pending"),
    ]


async def test_audit_rows_held_without_messages_are_written_by_the_commit(
    engine: AsyncEngine, uow_factory: UowFactory
) -> None:
    club_id = await club_with_players(uow_factory, 0)
    async with uow_factory() as uow:
        await uow.audit.add_many([entry(club_id, "director_add", 1)])
        await uow.commit()
    assert await logged(engine) == [("director_add", 1)]


async def test_a_count_in_the_same_unit_of_work_sees_the_rows_just_logged(
    uow_factory: UowFactory,
) -> None:
    club_id = await club_with_players(uow_factory, 0)
    async with uow_factory() as uow:
        await uow.audit.add_many([entry(club_id, "club_join_failed", 1)] * 2)
        since = NOW - timedelta(minutes=1)
        assert await uow.audit.count(action="club_join_failed", actor="ana", since=since) == 2


async def test_nothing_is_logged_or_queued_when_the_unit_of_work_rolls_back(
    engine: AsyncEngine, uow_factory: UowFactory
) -> None:
    club_id = await club_with_players(uow_factory, 0)
    async with uow_factory() as uow:
        await uow.audit.add_many([entry(club_id, "report", 1)])
        await uow.outbox.add_many([message(club_id, "result")])
        await uow.audit.add_many([entry(club_id, "accept", 2)])
        # no commit: leaving the block rolls back
    async with uow_factory() as uow:
        await uow.audit.add_many([entry(club_id, "kept", 3)])
        await uow.commit()
    assert await logged(engine) == [("kept", 3)]
    assert await outbox(engine) == []


async def test_a_result_its_audit_and_its_messages_are_written_together(
    engine: AsyncEngine, uow_factory: UowFactory
) -> None:
    state = midway(12)
    club_id = await club_with_players(uow_factory, 12)
    await store(uow_factory, club_id, state)
    number = open_matches(state)[0]
    async with uow_factory() as uow:
        loaded = await uow.tournaments.get(state.id, for_update=True)
        loaded.matches[number].white_score = 1
        await uow.tournaments.save(loaded)
        await uow.audit.add_many([entry(club_id, "report", 1)])
        await uow.outbox.add_many([message(club_id, "result"), message(club_id, "b", "board")])
        await uow.commit()
    stored = await load(uow_factory, state.id)
    assert stored.matches[number].white_score == 1
    assert await logged(engine) == [("report", 1)]
    assert [text for text, _ in await outbox(engine)] == ["result", "b"]


async def test_a_stale_save_taken_into_the_outbox_insert_fails_and_writes_nothing(
    engine: AsyncEngine, uow_factory: UowFactory
) -> None:
    state = midway(12)
    club_id = await club_with_players(uow_factory, 12)
    await store(uow_factory, club_id, state)
    first, second = open_matches(state)[:2]
    async with uow_factory() as stale_uow:
        stale = await stale_uow.tournaments.get(state.id)
        await stale_uow.commit()
        await saved_elsewhere(uow_factory, state.id, first)
        stale.matches[second].white_score = 1
        with pytest.raises(StaleState):
            await stale_uow.tournaments.save(stale)
            await stale_uow.audit.add_many([entry(club_id, "report", 1)])
            await stale_uow.outbox.add_many([message(club_id, "result")])
            await stale_uow.commit()
    stored = await load(uow_factory, state.id)
    assert stored.matches[second].white_score == state.matches[second].white_score
    assert await logged(engine) == [] and await outbox(engine) == []
