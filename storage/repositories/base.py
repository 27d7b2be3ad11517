"""What every repository shares: the session, the dialect, and portable upserts."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Table
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession
from sqlalchemy.sql.dml import Insert


class NotFound(LookupError):
    """The row asked for does not exist (a LookupError, so callers need not import this)."""


class StaleState(RuntimeError):
    """The tournament changed in the database since it was loaded; load it again."""


# The transaction's connection, kept in the session's `info` until the unit of work
# ends its transaction (`release_connection`): asking the session each time is a
# greenlet switch and ~0.1 ms, eight times a command (issue 17).
_CONNECTION = "clubtd_connection"


async def connection_of(session: AsyncSession) -> AsyncConnection:
    """Return the connection of the session's transaction, beginning it if need be."""
    conn: AsyncConnection | None = session.info.get(_CONNECTION)
    if conn is None:
        conn = await session.connection()
        session.info[_CONNECTION] = conn
    return conn


def release_connection(session: AsyncSession) -> None:
    """Forget the kept connection: the transaction is about to end (commit, rollback)."""
    session.info.pop(_CONNECTION, None)


class SqlRepository:
    """A repository working inside one unit of work's session and transaction."""

    def __init__(self, session: AsyncSession) -> None:
        self._session = session

    async def _conn(self) -> AsyncConnection:
        return await connection_of(self._session)

    @property
    def _dialect(self) -> str:
        bind = self._session.bind
        assert bind is not None, "the session must be bound to an engine"
        return bind.dialect.name


def insert_ignoring(dialect: str, table: Table, keys: Sequence[str]) -> Insert:
    """Return an INSERT that does nothing when a row with the same `keys` exists."""
    if dialect == "postgresql":
        return postgresql.insert(table).on_conflict_do_nothing(index_elements=list(keys))
    return sqlite.insert(table).on_conflict_do_nothing(index_elements=list(keys))


def upsert(dialect: str, table: Table, keys: Sequence[str], values: dict[str, Any]) -> Insert:
    """Return an INSERT of `values` that updates the other columns when `keys` exist."""
    changes = {k: v for k, v in values.items() if k not in keys}
    if dialect == "postgresql":
        pg = postgresql.insert(table).values(values)
        return pg.on_conflict_do_update(index_elements=list(keys), set_=changes)
    lite = sqlite.insert(table).values(values)
    return lite.on_conflict_do_update(index_elements=list(keys), set_=changes)
