"""A lock-free unit of work: one statement that writes everything, or nothing.

On PostgreSQL a unit of work made `lock_free` (a /report) begins no transaction: its
reads lock nothing, and its save of one row, its audit rows, its messages and the
platform's update id go in the outbox insert's one statement, which commits by itself
and writes only while the tournament is at the version read and the update id unseen.
Whatever else it is asked to write makes it give up before anything is written
(`must_retry_locked`), and its command runs again, locked. On SQLite, whose
transactions cost no round trip, `lock_free` changes nothing: these tests hold there
too, as the locked unit of work behaves.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest
from sqlalchemy import func, select, text
from sqlalchemy.ext.asyncio import AsyncEngine

from storage import StaleState
from storage import tables as t
from storage.engine import is_sqlite
from storage.repositories.tournaments import FUSED_ROWS
from storage.transaction import NeedsLock
from storage.unit_of_work import SqlUnitOfWork
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
from tournament.sanctions import Sanction


async def gives_up(
    engine: AsyncEngine, uow: SqlUnitOfWork, writes: Callable[[], Awaitable[None]]
) -> bool:
    """Run `writes` in a lock-free unit of work; return True when they gave up before
    writing (PostgreSQL: NeedsLock, to run again locked), False when they went through
    (SQLite, whose unit of work holds the write lock anyway)."""
    try:
        await writes()
    except NeedsLock:
        assert uow.must_retry_locked and not is_sqlite(engine)
        return True
    assert is_sqlite(engine)
    return False


async def written(engine: AsyncEngine) -> dict[str, list[object]]:
    """Return what the audit log, the outbox and the processed update ids hold now."""
    async with engine.connect() as conn:
        audit = await conn.execute(select(t.audit_log.c.action).order_by(t.audit_log.c.id))
        outbox = await conn.execute(
            select(t.outbox.c.payload, t.outbox.c.status).order_by(t.outbox.c.id)
        )
        updates = await conn.execute(select(t.processed_updates.c.update_id))
        return {
            "audit": [r.action for r in audit],
            "outbox": [(r.payload["text"], r.status) for r in outbox],
            "updates": [r.update_id for r in updates],
        }


async def a_tournament(uow_factory: UowFactory) -> tuple[int, int, list[int]]:
    """Store a club and a tournament midway through its groups; return the club's id,
    the tournament's and its open matches' numbers."""
    state = midway(12)
    club_id = await club_with_players(uow_factory, 12)
    await store(uow_factory, club_id, state)
    return club_id, state.id, open_matches(state)


async def test_a_report_its_audit_its_messages_and_its_update_id_go_in_one_statement(
    engine: AsyncEngine, uow_factory: UowFactory
) -> None:
    club_id, tournament_id, (number, *_) = await a_tournament(uow_factory)
    async with uow_factory() as uow:
        await uow.outbox.add_many([message(club_id, "board v1", "board")])
        await uow.commit()
    async with uow_factory(lock_free=True) as uow:
        assert await uow.updates.remember("telegram", "u-1", NOW)
        state = await uow.tournaments.get(tournament_id, for_update=True)
        state.matches[number].white_score = 1
        await uow.tournaments.save(state)
        await uow.audit.add_many([entry(club_id, "report")])
        ids = await uow.outbox.add_many(
            [message(club_id, "result"), message(club_id, "board v2", "board")]
        )
        if not is_sqlite(engine):
            # Committed by that one statement: another connection sees it all already.
            assert (await written(engine))["updates"] == ["u-1"]
        await uow.commit()
    assert len(set(ids)) == 2
    assert (await load(uow_factory, tournament_id)).matches[number].white_score == 1
    assert await written(engine) == {
        "audit": ["report"],
        "outbox": [("board v1", "superseded"), ("result", "pending"), ("board v2", "pending")],
        "updates": ["u-1"],
    }


@pytest.mark.parametrize("last", ["outbox insert", "commit"])
async def test_a_tournament_changed_since_the_lock_free_read_writes_nothing(
    engine: AsyncEngine, uow_factory: UowFactory, last: str
) -> None:
    """Whichever sends the last statement: the outbox insert, or the commit of a command
    that queued no message."""
    club_id, tournament_id, (first, second, *_) = await a_tournament(uow_factory)
    async with uow_factory(lock_free=True) as uow:
        assert await uow.updates.remember("telegram", "u-2", NOW)
        state = await uow.tournaments.get(tournament_id, for_update=True)
        if is_sqlite(engine):
            return  # SQLite's unit of work holds the write lock: nobody saves meanwhile
        await saved_elsewhere(uow_factory, tournament_id, first)
        state.matches[second].white_score = 1
        await uow.tournaments.save(state)
        await uow.audit.add_many([entry(club_id, "report")])
        with pytest.raises(NeedsLock):
            if last == "commit":
                await uow.commit()
            else:
                await uow.outbox.add_many([message(club_id, "result")])
        assert uow.must_retry_locked
    stored = await load(uow_factory, tournament_id)
    assert stored.matches[first].white_score == 1  # the other save
    assert stored.matches[second].white_score != 1
    assert await written(engine) == {"audit": [], "outbox": [], "updates": []}


async def test_a_redelivered_update_writes_nothing_and_the_locked_retry_says_so(
    engine: AsyncEngine, uow_factory: UowFactory
) -> None:
    club_id, tournament_id, (number, *_) = await a_tournament(uow_factory)
    async with uow_factory() as uow:
        assert await uow.updates.remember("telegram", "u-3", NOW)
        await uow.commit()
    async with uow_factory(lock_free=True) as uow:
        if is_sqlite(engine):
            assert not await uow.updates.remember("telegram", "u-3", NOW)
            return
        # Lock-free, the update id is checked by the last statement, not here.
        assert await uow.updates.remember("telegram", "u-3", NOW)
        state = await uow.tournaments.get(tournament_id, for_update=True)
        state.matches[number].white_score = 1
        await uow.tournaments.save(state)
        with pytest.raises(NeedsLock):
            await uow.outbox.add_many([message(club_id, "result")])
        assert uow.must_retry_locked
    async with uow_factory() as uow:
        assert not await uow.updates.remember("telegram", "u-3", NOW)
    assert (await load(uow_factory, tournament_id)).matches[number].white_score != 1
    assert await written(engine) == {"audit": [], "outbox": [], "updates": ["u-3"]}


async def test_a_second_write_gives_up_before_anything_is_written(
    engine: AsyncEngine, uow_factory: UowFactory
) -> None:
    club_id, tournament_id, (first, second, *_) = await a_tournament(uow_factory)
    async with uow_factory(lock_free=True) as uow:
        assert await uow.updates.remember("telegram", "u-4", NOW)
        state = await uow.tournaments.get(tournament_id, for_update=True)
        state.matches[first].white_score = 1
        state.matches[second].white_score = 1
        sanction = Sanction(
            id=0,
            player=1,
            reason="no_show",
            origin=tournament_id,
            applies_to=None,
            created_at=NOW,
            note="",
        )

        async def writes() -> None:
            await uow.tournaments.save(state)  # held: two rows, one statement
            await uow.sanctions.add(club_id, sanction)  # a write of its own
            await uow.outbox.add_many([message(club_id, "result")])
            await uow.commit()

        if not await gives_up(engine, uow, writes):
            return
    stored = await load(uow_factory, tournament_id)
    assert stored.matches[first].white_score != 1 and stored.matches[second].white_score != 1
    assert await written(engine) == {"audit": [], "outbox": [], "updates": []}
    async with engine.connect() as conn:
        assert (await conn.execute(select(func.count()).select_from(t.sanctions))).scalar() == 0


async def test_a_save_and_its_audit_without_messages_are_the_commits_one_statement(
    engine: AsyncEngine, uow_factory: UowFactory
) -> None:
    """A /confirm or a /checkin queues no message: its commit sends the save, its audit
    rows and its update id as the last statement, as the outbox insert would."""
    club_id, tournament_id, (number, *_) = await a_tournament(uow_factory)
    async with uow_factory(lock_free=True) as uow:
        assert await uow.updates.remember("telegram", "u-5", NOW)
        state = await uow.tournaments.get(tournament_id, for_update=True)
        state.matches[number].white_score = 1
        await uow.tournaments.save(state)
        await uow.audit.add_many([entry(club_id, "confirm")])
        await uow.commit()
        assert not uow.must_retry_locked
    assert (await load(uow_factory, tournament_id)).matches[number].white_score == 1
    assert await written(engine) == {"audit": ["confirm"], "outbox": [], "updates": ["u-5"]}


async def test_audit_rows_without_a_save_give_up_at_the_commit(
    engine: AsyncEngine, uow_factory: UowFactory
) -> None:
    """Nothing guards them: written alone they could be written twice by the retry."""
    club_id, _, _ = await a_tournament(uow_factory)
    async with uow_factory(lock_free=True) as uow:
        await uow.clubs.for_chat("telegram", "chat-1")
        await uow.audit.add_many([entry(club_id, "confirm")])
        if is_sqlite(engine):
            await uow.commit()
            return
        with pytest.raises(NeedsLock):
            await uow.commit()
        assert uow.must_retry_locked
    assert await written(engine) == {"audit": [], "outbox": [], "updates": []}


async def test_a_locked_unit_of_work_is_as_before(
    engine: AsyncEngine, uow_factory: UowFactory
) -> None:
    club_id, tournament_id, (first, second, *_) = await a_tournament(uow_factory)
    async with uow_factory() as uow:
        state = await uow.tournaments.get(tournament_id)
        await uow.commit()  # SQLite: let the other save in
        await saved_elsewhere(uow_factory, tournament_id, first)
        state.matches[second].white_score = 1
        with pytest.raises(StaleState):
            await uow.tournaments.save(state)
            await uow.outbox.add_many([message(club_id, "result")])
            await uow.commit()
        assert not uow.must_retry_locked
    assert await written(engine) == {"audit": [], "outbox": [], "updates": []}


async def test_a_lock_free_read_locks_no_row(engine: AsyncEngine, uow_factory: UowFactory) -> None:
    """Its reads commit as they run: a row lock would cost each one a write to disk and
    hold nothing. PostgreSQL marks a row a reader locked (xmax); a locked read does."""
    if is_sqlite(engine):
        return  # no row locks: its transaction holds the database
    club_id, tournament_id, _ = await a_tournament(uow_factory)
    async with uow_factory() as uow:
        await uow.clubs.link_chat(club_id, "telegram", "chat-1")
        await uow.commit()

    async def locker() -> int:
        async with engine.connect() as conn:
            query = text("SELECT xmax::text::bigint FROM tournaments WHERE id = :id")
            return int((await conn.execute(query, {"id": tournament_id})).scalar_one())

    before = await locker()
    async with uow_factory(lock_free=True) as uow:
        await uow.clubs.for_chat("telegram", "chat-1", listing=True)  # a command's read
        await uow.tournaments.get(tournament_id, for_update=True)
        await uow.tournaments.list(club_id, for_update=True)
    assert await locker() == before
    async with uow_factory() as uow:
        await uow.tournaments.get(tournament_id, for_update=True)
        await uow.commit()
    assert await locker() != before


async def test_a_save_of_more_rows_than_one_statement_carries_gives_up(
    engine: AsyncEngine, uow_factory: UowFactory
) -> None:
    club_id, tournament_id, numbers = await a_tournament(uow_factory)
    assert len(numbers) > FUSED_ROWS
    async with uow_factory(lock_free=True) as uow:
        state = await uow.tournaments.get(tournament_id, for_update=True)
        for number in numbers[: FUSED_ROWS + 1]:
            state.matches[number].white_score = 1

        async def writes() -> None:
            await uow.tournaments.save(state)
            await uow.outbox.add_many([message(club_id, "result")])
            await uow.commit()

        if not await gives_up(engine, uow, writes):
            return
    stored = await load(uow_factory, tournament_id)
    assert all(stored.matches[n].white_score != 1 for n in numbers)
    assert await written(engine) == {"audit": [], "outbox": [], "updates": []}


@pytest.mark.parametrize("lock_free", [False, True], ids=["locked", "lock-free"])
async def test_an_accept_that_lets_the_next_match_start_is_one_statement_too(
    engine: AsyncEngine, uow_factory: UowFactory, lock_free: bool
) -> None:
    """An /accept changes its match and the one it lets start: both rows ride in the
    outbox insert's statement, guarded by the one version bump."""
    club_id, tournament_id, (first, second, *_) = await a_tournament(uow_factory)
    async with uow_factory(lock_free=lock_free) as uow:
        state = await uow.tournaments.get(tournament_id, for_update=True)
        state.matches[first].white_score = 1
        state.matches[second].black_score = 2
        await uow.tournaments.save(state)
        assert uow.tournaments.last_save is not None
        assert uow.tournaments.last_save.updated == {"matches": 2}
        await uow.outbox.add_many([message(club_id, "result")])
        await uow.commit()
    stored = await load(uow_factory, tournament_id)
    assert stored.matches[first].white_score == 1 and stored.matches[second].black_score == 2
    assert (await written(engine))["outbox"] == [("result", "pending")]
    # Saved once: the version moved on by one.
    async with uow_factory() as uow:
        again = await uow.tournaments.get(tournament_id, for_update=True)
        again.matches[first].white_score = 0
        await uow.tournaments.save(again)
        await uow.commit()
    assert (await load(uow_factory, tournament_id)).matches[first].white_score == 0


async def test_a_held_save_of_two_rows_without_messages_is_sent_by_the_commit(
    uow_factory: UowFactory,
) -> None:
    _, tournament_id, (first, second, *_) = await a_tournament(uow_factory)
    async with uow_factory() as uow:
        state = await uow.tournaments.get(tournament_id, for_update=True)
        state.matches[first].white_score = 1
        state.matches[second].black_score = 2
        await uow.tournaments.save(state)
        await uow.commit()
    stored = await load(uow_factory, tournament_id)
    assert stored.matches[first].white_score == 1 and stored.matches[second].black_score == 2
