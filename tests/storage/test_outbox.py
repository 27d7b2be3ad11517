"""The outbox (ARCHITECTURE idea 2): queue, coalesce, claim, mark, expire."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from storage import OutboxStore
from storage import tables as t
from tests.storage.conftest import NOW, UowFactory, club_with_players

LEASE = timedelta(minutes=2)


async def queue(
    uow_factory: UowFactory,
    club_id: int,
    *texts: str,
    chat: str = "chat-1",
    platform: str = "telegram",
    coalesce: str | None = None,
    seconds: int = 0,
    expires_in: timedelta | None = None,
) -> None:
    async with uow_factory() as uow:
        for i, text in enumerate(texts):
            at = NOW + timedelta(seconds=seconds + i)
            await uow.outbox.add(
                club_id=club_id,
                platform=platform,
                chat=chat,
                payload={"text": text},
                created_at=at,
                coalesce=coalesce,
                expires_at=None if expires_in is None else at + expires_in,
            )
        await uow.commit()


async def statuses(engine: AsyncEngine) -> dict[str, str]:
    async with engine.connect() as conn:
        rows = await conn.execute(select(t.outbox.c.payload, t.outbox.c.status))
        return {r.payload["text"]: r.status for r in rows}


async def test_rows_are_claimed_oldest_first_and_leased(
    engine: AsyncEngine, uow_factory: UowFactory
) -> None:
    club_id = await club_with_players(uow_factory, 0)
    await queue(uow_factory, club_id, "first", "second", "third")
    await queue(uow_factory, club_id, "elsewhere", platform="discord")
    store = OutboxStore(engine, lease=LEASE)
    assert await store.pending_count() == 4
    assert await store.pending_count("telegram") == 3
    now = NOW + timedelta(minutes=1)
    claimed = await store.claim("telegram", now=now, limit=2)
    assert [r.payload["text"] for r in claimed] == ["first", "second"]
    assert all(r.leased_until == now + LEASE and r.chat == "chat-1" for r in claimed)
    # Leased rows go to nobody else; the third is still free.
    again = await store.claim("telegram", now=now)
    assert [r.payload["text"] for r in again] == ["third"]
    assert await store.claim("telegram", now=now) == []
    # A sender that died: once the lease passes the row is handed out again.
    later = await store.claim("telegram", now=now + LEASE)
    assert [r.payload["text"] for r in later] == ["first", "second", "third"]


async def test_a_coalesce_key_supersedes_older_pending_rows(
    engine: AsyncEngine, uow_factory: UowFactory
) -> None:
    club_id = await club_with_players(uow_factory, 0)
    await queue(uow_factory, club_id, "standings v1", coalesce="standings")
    await queue(uow_factory, club_id, "standings v1 other chat", coalesce="standings", chat="c2")
    await queue(uow_factory, club_id, "a result", seconds=5)
    await queue(uow_factory, club_id, "standings v2", coalesce="standings", seconds=10)
    assert await statuses(engine) == {
        "standings v1": "superseded",
        "standings v1 other chat": "pending",
        "a result": "pending",
        "standings v2": "pending",
    }
    store = OutboxStore(engine)
    claimed = await store.claim("telegram", now=NOW + timedelta(minutes=1))
    assert [r.payload["text"] for r in claimed] == [
        "standings v1 other chat",
        "a result",
        "standings v2",
    ]
    assert claimed[-1].coalesce == "standings"


async def test_sent_rows_give_the_live_message_to_edit(
    engine: AsyncEngine, uow_factory: UowFactory
) -> None:
    club_id = await club_with_players(uow_factory, 0)
    store = OutboxStore(engine)
    await queue(uow_factory, club_id, "schedule", coalesce="schedule")  # another board
    (other,) = await store.claim("telegram", now=NOW)
    await store.mark_sent(other.id, at=NOW, platform_message_id="400")
    await queue(uow_factory, club_id, "standings v1", coalesce="standings")
    assert await store.live_message("telegram", "chat-1", "standings") is None
    (row,) = await store.claim("telegram", now=NOW + timedelta(minutes=1))
    assert row.live is None  # nothing of this board to edit yet (not the schedule's)
    await store.mark_sent(row.id, at=NOW + timedelta(minutes=1), platform_message_id="501")
    assert await store.live_message("telegram", "chat-1", "standings") == "501"
    assert await store.live_message("telegram", "chat-2", "standings") is None
    await queue(uow_factory, club_id, "standings v2", coalesce="standings", seconds=120)
    (row,) = await store.claim("telegram", now=NOW + timedelta(minutes=3))
    assert row.live == "501"  # read with the claim: the sender edits it
    await store.mark_sent(row.id, at=NOW + timedelta(minutes=3), platform_message_id="502")
    assert await store.live_message("telegram", "chat-1", "standings") == "502"
    assert await store.pending_count() == 0
    assert await statuses(engine) == {
        "schedule": "sent",
        "standings v1": "sent",
        "standings v2": "sent",
    }


async def test_a_retry_waits_for_its_time_and_counts_attempts(
    engine: AsyncEngine, uow_factory: UowFactory
) -> None:
    club_id = await club_with_players(uow_factory, 0)
    store = OutboxStore(engine)
    await queue(uow_factory, club_id, "hello")
    now = NOW + timedelta(seconds=5)
    (row,) = await store.claim("telegram", now=now)
    assert row.attempts == 0
    retry_at = now + timedelta(seconds=30)
    await store.mark_retry(row.id, at=now, retry_at=retry_at, error="429 retry after 30")
    assert await store.claim("telegram", now=now + timedelta(seconds=29)) == []
    (again,) = await store.claim("telegram", now=retry_at)
    assert again.id == row.id and again.attempts == 1
    await store.mark_failed(row.id, at=retry_at, error="403 bot was blocked")
    assert await statuses(engine) == {"hello": "failed"}
    async with engine.connect() as conn:
        stored = (await conn.execute(select(t.outbox))).one()
    assert (stored.attempts, stored.last_error, stored.last_attempt_at) == (
        2,
        "403 bot was blocked",
        retry_at,
    )


async def test_expired_rows_are_never_sent(engine: AsyncEngine, uow_factory: UowFactory) -> None:
    club_id = await club_with_players(uow_factory, 0)
    store = OutboxStore(engine)
    await queue(uow_factory, club_id, "match starts", expires_in=timedelta(minutes=10))
    await queue(uow_factory, club_id, "no expiry", seconds=1)
    claimed = await store.claim("telegram", now=NOW + timedelta(minutes=10))
    assert [r.payload["text"] for r in claimed] == ["no expiry"]
    assert await statuses(engine) == {"match starts": "expired", "no expiry": "pending"}


async def test_concurrent_claimers_never_get_the_same_row(
    engine: AsyncEngine, uow_factory: UowFactory
) -> None:
    """PostgreSQL: FOR UPDATE SKIP LOCKED plus the lease; SQLite: serialised claims."""
    club_id = await club_with_players(uow_factory, 0)
    await queue(uow_factory, club_id, *(f"message {i}" for i in range(50)))
    stores = [OutboxStore(engine) for _ in range(4)]
    now = NOW + timedelta(minutes=5)
    batches = await asyncio.gather(*(s.claim("telegram", now=now, limit=10) for s in stores))
    ids = [row.id for batch in batches for row in batch]
    assert len(ids) == 40
    assert len(set(ids)) == 40
    rest = await stores[0].claim("telegram", now=now, limit=50)
    assert len(rest) == 10 and not {r.id for r in rest} & set(ids)


async def test_many_rows_are_one_insert_and_each_id_is_its_own_row(
    engine: AsyncEngine, uow_factory: UowFactory
) -> None:
    """A draw queues dozens of rows: one statement, and each id returned in the order the
    messages were given (the held ones are marked by it)."""
    from sqlalchemy import event

    club_id = await club_with_players(uow_factory, 0)
    inserts: list[str] = []

    def seen(_conn: object, _cursor: object, statement: str, *_args: object) -> None:
        if statement.startswith("INSERT INTO outbox"):
            inserts.append(statement)

    event.listen(engine.sync_engine, "before_cursor_execute", seen)
    messages = [
        {
            "club_id": club_id,
            "platform": "telegram",
            "chat": f"chat-{i}",
            "payload": {"text": str(i)},
            "created_at": NOW,
        }
        for i in range(40)
    ]
    async with uow_factory() as uow:
        ids = await uow.outbox.add_many(messages)
        await uow.commit()
    event.remove(engine.sync_engine, "before_cursor_execute", seen)
    async with engine.connect() as conn:
        chats = dict((await conn.execute(select(t.outbox.c.id, t.outbox.c.chat))).all())
    assert [chats[i] for i in ids] == [f"chat-{i}" for i in range(40)]
    if engine.dialect.name == "sqlite":
        assert len(inserts) == 1


async def test_a_printed_batch_is_marked_sent_at_once(
    engine: AsyncEngine, uow_factory: UowFactory
) -> None:
    club_id = await club_with_players(uow_factory, 0)
    await queue(uow_factory, club_id, "first", "second", "third")
    store = OutboxStore(engine, lease=LEASE)
    now = NOW + timedelta(minutes=1)
    claimed = await store.claim("telegram", now=now, limit=2)
    await store.mark_all_sent([r.id for r in claimed], at=now)
    assert await store.pending_count() == 1
    async with engine.connect() as conn:
        rows = (await conn.execute(select(t.outbox.c.status, t.outbox.c.sent_at))).all()
    assert sorted(status for status, _ in rows) == ["pending", "sent", "sent"]
    assert [r.payload["text"] for r in await store.claim("telegram", now=now)] == ["third"]


async def test_a_unit_of_work_says_which_platforms_it_queued_for(
    uow_factory: UowFactory,
) -> None:
    """The console drains only after a command that queued a row for it; a held row is
    the reply's own and needs no sender."""
    club_id = await club_with_players(uow_factory, 0)
    row = {"club_id": club_id, "chat": "c", "payload": {}, "created_at": NOW}
    async with uow_factory() as uow:
        assert uow.outbox.queued == frozenset()
        await uow.outbox.add_many(
            [
                {**row, "platform": "console"},
                {**row, "platform": "telegram", "held_until": NOW + LEASE},
            ]
        )
        assert uow.outbox.queued == frozenset({"console"})


async def test_the_senders_calls_cost_one_statement_each_without_a_transaction(
    engine: AsyncEngine, uow_factory: UowFactory
) -> None:
    """PostgreSQL: a mark, a release or a look-up of the sender is one statement that
    commits alone (autocommit: no BEGIN and COMMIT round trips); a claim is two (issue 17)."""
    from sqlalchemy import event

    if engine.dialect.name == "sqlite":
        return  # one transaction per call there: no round trips to save
    club_id = await club_with_players(uow_factory, 0)
    await queue(uow_factory, club_id, "one", "two")
    store = OutboxStore(engine)
    said: list[tuple[str, object]] = []

    def seen(conn: Any, _cursor: object, statement: str, *_args: object) -> None:
        said.append((statement, conn.get_execution_options().get("isolation_level")))

    event.listen(engine.sync_engine, "before_cursor_execute", seen)
    try:
        first, second = await store.claim("telegram", now=NOW + timedelta(minutes=5))
        assert len(said) == 2
        await store.mark_sent(first.id, at=NOW, platform_message_id="m1")
        await store.live_message("telegram", first.chat, "none")
        await store.mark_retry(second.id, at=NOW, retry_at=NOW, error="429")
        await store.release(second.id, at=NOW)
    finally:
        event.remove(engine.sync_engine, "before_cursor_execute", seen)
    assert len(said) == 6
    assert {level for _, level in said} == {"AUTOCOMMIT"}
    assert await statuses(engine) == {"one": "sent", "two": "pending"}


@pytest.mark.parametrize(
    "database_url", [pytest.param("postgresql", marks=pytest.mark.postgres)], indirect=True
)
async def test_expiring_passes_over_rows_another_transaction_holds(
    engine: AsyncEngine, uow_factory: UowFactory
) -> None:
    """Two senders expiring the same rows waited for each other's row locks and deadlocked
    (seen in bench.load with four processes): a held row is left to the next round."""
    club_id = await club_with_players(uow_factory, 0)
    await queue(uow_factory, club_id, "held", "free", expires_in=timedelta(minutes=1))
    store = OutboxStore(engine)
    later = NOW + timedelta(minutes=5)
    async with engine.connect() as holder, holder.begin():
        held = select(t.outbox.c.id).where(t.outbox.c.payload["text"].as_string() == "held")
        await holder.execute(held.with_for_update())
        claimed = await asyncio.wait_for(store.claim("telegram", now=later), timeout=5)
        assert claimed == []
        assert await statuses(engine) == {"held": "pending", "free": "expired"}
    assert await store.claim("telegram", now=later) == []
    assert await statuses(engine) == {"held": "expired", "free": "expired"}
