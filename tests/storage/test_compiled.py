"""A Core statement sent straight to the driver (asyncpg, sqlite3) gives what SQLAlchemy
gives (the same rows, types, row counts and errors), and what it cannot take goes
through SQLAlchemy (storage/compiled)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import bindparam, delete, func, insert, select, text, update
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from storage import tables as t
from storage.compiled import FastResult
from storage.engine import begin, connect
from storage.postgres_driver import PostgresConnection

only_postgresql = pytest.mark.parametrize(
    "database_url", [pytest.param("postgresql", marks=pytest.mark.postgres)], indirect=True
)
NOW = datetime(2026, 1, 31, 20, 0, tzinfo=UTC)


async def _club(engine: AsyncEngine) -> int:
    async with engine.begin() as conn:
        query = insert(t.clubs).values(name="Club", timezone="UTC", language="en", created_at=NOW)
        return int((await conn.execute(query.returning(t.clubs.c.id))).scalar_one())


class _Slow:
    """The same connection, every statement through SQLAlchemy."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    async def execute(self, statement: Any, parameters: Any = None) -> Any:
        if isinstance(self.conn, PostgresConnection):
            return await self.conn.wrapped.execute(statement, parameters)
        return self.conn.sync_connection.execute(statement, parameters)


def _both(conn: Any) -> tuple[_Slow, Any]:
    return _Slow(conn), conn


async def test_rows_types_and_counts_are_sqlalchemys(engine: AsyncEngine) -> None:
    club_id = await _club(engine)
    rows = [
        {"club_id": club_id, "tournament_id": None, "actor": f"a{i}", "action": "act",
         "detail": {"n": i, "names": ["Ștefan", "Łucja"]}, "at": NOW + timedelta(minutes=i)}
        for i in range(3)
    ]  # fmt: skip
    async with begin(engine) as conn:
        slow, fast = _both(conn)
        many = await fast.execute(insert(t.audit_log), rows)  # pipelined, no rows
        assert isinstance(many, FastResult)
        one = await fast.execute(insert(t.audit_log).returning(t.audit_log.c.id), rows[0])
        assert isinstance(one, FastResult) and isinstance(one.scalar_one(), int)
        query = (
            select(t.audit_log.c.actor, t.audit_log.c.detail, t.audit_log.c.at)
            .where(t.audit_log.c.club_id == bindparam("club"))
            .order_by(t.audit_log.c.id)
        )
        got = await fast.execute(query, {"club": club_id})
        assert isinstance(got, FastResult)
        got_rows = got.all()
        want_rows = (await slow.execute(query, {"club": club_id})).all()
        assert got_rows == want_rows
        assert [r._mapping for r in got_rows] == [r._mapping for r in want_rows]
        assert got_rows[0].at == NOW and got_rows[0].at.tzinfo is not None
        assert got_rows[1].detail == {"n": 1, "names": ["Ștefan", "Łucja"]}
        actor = t.audit_log.c.actor
        touched = update(t.audit_log).where((actor == "a0") | (actor == "a1"))
        counted = await fast.execute(touched.values(action="moved"))
        assert isinstance(counted, FastResult) and counted.rowcount == 3  # a0 twice, a1
        ids = bindparam("ids", expanding=True)
        listed = select(t.audit_log.c.actor).where(t.audit_log.c.actor.in_(ids))
        for asked in (["a2", "nobody"], ["a1"], []):  # one parameter an item, none
            got = await fast.execute(listed, {"ids": asked})
            want = await slow.execute(listed, {"ids": asked})
            assert isinstance(got, FastResult) and got.scalars().all() == want.scalars().all()
        none = await fast.execute(delete(t.audit_log).where(t.audit_log.c.actor == "nobody"))
        assert none.rowcount == 0
        total = select(func.count()).select_from(t.audit_log)
        assert (await fast.execute(total)).scalar_one() == 4


async def test_what_the_short_path_cannot_take_goes_through_sqlalchemy(
    engine: AsyncEngine,
) -> None:
    await _club(engine)
    async with begin(engine) as conn:
        _, fast = _both(conn)
        plain = await fast.execute(text("SELECT 1 AS one"))  # text: the columns are unknown
        assert not isinstance(plain, FastResult) and plain.scalar_one() == 1
        defaults = insert(t.clubs).values(
            name="Second", timezone="UTC", language="en", created_at=NOW
        )
        added = await fast.execute(defaults.returning(t.clubs.c.pictures))  # Python default
        assert not isinstance(added, FastResult) and added.scalar_one() is True


async def test_values_passed_or_written_in_the_statement_are_the_ones_bound(
    engine: AsyncEngine,
) -> None:
    """The short path binds a call's own values as they are, and otherwise asks
    SQLAlchemy: literals in the statement, defaults of bind parameters, and statements of
    one cached form with different literals each keep their own values."""
    club_id = await _club(engine)
    c = t.audit_log.c
    async with begin(engine) as conn:
        _, fast = _both(conn)
        add = insert(t.audit_log).values(
            club_id=bindparam("club"),
            actor=bindparam("who"),
            action=bindparam("what"),
            detail=bindparam("detail"),
            at=bindparam("at"),
        )
        for who in ("a", "b"):
            values = {"club": club_id, "who": who, "what": "act", "detail": {}, "at": NOW}
            assert isinstance(await fast.execute(add, values), FastResult)
        # The same cached form, two literals: each statement its own.
        for who in ("a", "b"):
            renamed = update(t.audit_log).where(c.actor == who).values(action=f"by-{who}")
            assert isinstance(await fast.execute(renamed), FastResult)
        # Passed values beside a literal; a bind parameter's default when not passed.
        since = bindparam("since", value=NOW - timedelta(days=1))
        mixed = select(c.actor).where(c.action == "by-a", c.club_id == bindparam("club"))
        assert (await fast.execute(mixed, {"club": club_id})).scalars().all() == ["a"]
        defaulted = select(c.actor).where(c.club_id == bindparam("club"), c.at >= since)
        # No ORDER BY: PostgreSQL returns updated rows in whatever order its heap has them.
        found = (await fast.execute(defaulted, {"club": club_id})).scalars().all()
        assert sorted(found) == ["a", "b"]
        later = {"club": club_id, "since": NOW + timedelta(days=1)}
        assert (await fast.execute(defaulted, later)).scalars().all() == []
        named = select(c.actor, c.action).where(c.actor == bindparam("who")).order_by(c.id)
        assert (await fast.execute(named, {"who": "b", "extra": 1})).all() == [("b", "by-b")]


async def test_errors_are_sqlalchemys_and_the_transaction_rolls_back(engine: AsyncEngine) -> None:
    club_id = await _club(engine)
    entry = insert(t.audit_log).values(
        id=1, club_id=club_id, actor="a", action="act", detail={}, at=NOW
    )
    async with connect(engine) as conn:
        tx = await conn.begin()
        assert isinstance(await conn.execute(entry), FastResult)
        with pytest.raises(IntegrityError):
            await conn.execute(entry)  # the same id again
        await tx.rollback()
        again = await conn.execute(select(func.count()).select_from(t.audit_log))
        assert isinstance(again, FastResult) and again.scalar_one() == 0


@only_postgresql
async def test_a_connection_lost_mid_transaction_is_invalidated_and_replaced(
    engine: AsyncEngine,
) -> None:
    club_id = await _club(engine)
    query = select(t.clubs.c.name).where(t.clubs.c.id == bindparam("club"))
    async with connect(engine) as conn:
        pid = (await conn.execute(select(func.pg_backend_pid()))).scalar_one()
        async with engine.connect() as other:
            await other.execute(select(func.pg_terminate_backend(pid)))
        with pytest.raises(DBAPIError) as raised:
            await conn.execute(query, {"club": club_id})
        assert raised.value.connection_invalidated
    async with begin(engine) as conn:  # the pool hands out a live connection
        assert (await conn.execute(query, {"club": club_id})).scalar_one() == "Club"


async def test_a_statement_without_begin_is_in_a_transaction_rolled_back_at_close(
    engine: AsyncEngine,
) -> None:
    club_id = await _club(engine)
    entry = insert(t.audit_log).values(club_id=club_id, actor="a", action="act", detail={}, at=NOW)
    async with connect(engine) as conn:  # never begun, never committed
        assert isinstance(await conn.execute(entry), FastResult)
    async with connect(engine) as conn:
        counted = await conn.execute(select(func.count()).select_from(t.audit_log))
        assert counted.scalar_one() == 0
