"""What every repository shares: the transaction, the dialect, and portable upserts."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Table
from sqlalchemy.dialects import sqlite
from sqlalchemy.sql.dml import Insert

from storage.engine import DatabaseConnection
from storage.transaction import Transaction


class NotFound(LookupError):
    """The row asked for does not exist (a LookupError, so callers need not import this)."""


class StaleState(RuntimeError):
    """The tournament changed in the database since it was loaded; load it again."""


class SqlRepository:
    """A repository working inside one unit of work's transaction."""

    def __init__(self, transaction: Transaction) -> None:
        self._transaction = transaction

    async def _conn(self) -> DatabaseConnection:
        return await self._transaction.connection()

    @property
    def _dialect(self) -> str:
        return self._transaction.bind.dialect.name


def insert_ignoring(dialect: str, table: Table, keys: Sequence[str]) -> Insert:
    """Return an INSERT that does nothing when a row with the same `keys` exists."""
    if dialect == "postgresql":
        # Imported here: the PostgreSQL dialect costs ~20 ms of every command on SQLite.
        from sqlalchemy.dialects import postgresql

        return postgresql.insert(table).on_conflict_do_nothing(index_elements=list(keys))
    return sqlite.insert(table).on_conflict_do_nothing(index_elements=list(keys))


def upsert(dialect: str, table: Table, keys: Sequence[str], values: dict[str, Any]) -> Insert:
    """Return an INSERT of `values` that updates the other columns when `keys` exist."""
    changes = {k: v for k, v in values.items() if k not in keys}
    if dialect == "postgresql":
        from sqlalchemy.dialects import postgresql

        pg = postgresql.insert(table).values(values)
        return pg.on_conflict_do_update(index_elements=list(keys), set_=changes)
    lite = sqlite.insert(table).values(values)
    return lite.on_conflict_do_update(index_elements=list(keys), set_=changes)
