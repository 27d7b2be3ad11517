"""PostgreSQL statements sent straight to asyncpg, compiled once by SQLAlchemy.

Through SQLAlchemy's asyncio layer one statement cost ~360 us here, of which asyncpg's
round trip is ~110 us: greenlet switches, an execution context, the DB-API cursor adapter
(issue 17; a /report is six statements). So a Core statement is compiled by SQLAlchemy
(storage/compiled: the same SQL, the same values in and out) and run on the pooled
asyncpg connection from the event loop, inside the transaction SQLAlchemy's adapter
begins and ends as before; several parameter sets are pipelined by asyncpg. What
storage/compiled leaves to SQLAlchemy, and errors, go through SQLAlchemy as before.

A lock-free connection (storage/transaction: a unit of work tried without locks) begins
no transaction: its reads commit as they run, and its one write, sent as the `last`
statement, commits by itself. Anything else it is asked to run calls `refuse`, which
raises: that unit of work must run again in a transaction.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from sqlalchemy.util.concurrency import greenlet_spawn

from storage.compiled import FastResult, Ready, arguments, result, runnable

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncConnection, AsyncTransaction

_ROWCOUNT = re.compile(r"(?:SELECT|UPDATE|DELETE|INSERT \d+) (\d+)")


def _rowcount(status: str | None) -> int:
    found = _ROWCOUNT.match(status or "")
    return int(found.group(1)) if found else -1


class PostgresConnection:
    """An AsyncConnection whose `execute` of a Core statement goes straight to asyncpg."""

    def __init__(
        self, conn: AsyncConnection, refuse: Callable[[], NoReturn] | None = None
    ) -> None:
        self.wrapped = conn
        # SQLAlchemy's internals this path leans on are untyped: Any, not a guess.
        self.dialect: Any = conn.dialect
        self.sync_connection: Any = conn.sync_connection
        self._refuse = refuse  # set: lock-free, no transaction begun

    async def execute(
        self,
        statement: Any,
        parameters: Mapping[str, Any] | Sequence[Mapping[str, Any]] | None = None,
        *,
        last: bool = False,
    ) -> Any:
        """Run one statement: on asyncpg directly when it can, else through SQLAlchemy.
        Lock-free, only reads and the `last` statement run."""
        refuse = self._refuse
        if refuse is not None and not last and not getattr(statement, "is_select", False):
            refuse()
        ready = runnable(self.sync_connection, statement, parameters)
        if ready is None:
            if refuse is not None:
                refuse()  # SQLAlchemy would begin a transaction
            return await self.wrapped.execute(statement, parameters)
        found, sets = ready
        if len(sets) == 1:
            return await self._execute_one(found, sets[0])
        return await self._execute_many(found, sets)

    async def _execute_one(self, found: Ready, parameters: Mapping[str, Any] | None) -> Any:
        sql, args = arguments(found, parameters)
        rows, status, attributes = await self._on_asyncpg(
            sql, args, lambda prepared: prepared.fetch(*args)
        )
        types = [attribute.type.oid for attribute in attributes or ()]
        return result(found, rows, _rowcount(status), types)

    async def _execute_many(
        self, found: Ready, sets: Sequence[Mapping[str, Any] | None]
    ) -> FastResult:
        """Run one statement for several parameter sets, pipelined by asyncpg (no rows)."""
        many = [arguments(found, one)[1] for one in sets]
        await self._on_asyncpg(found.plan.sql, many, lambda prepared: prepared.executemany(many))
        return result(found, (), -1, ())

    async def _on_asyncpg(
        self, sql: str, args: Any, run: Callable[[Any], Awaitable[Any]]
    ) -> tuple[Any, str | None, Any]:
        """Run `run` on `sql` prepared on this connection, in its transaction (begun now if
        none is); return what it gave, the statement's status and its columns."""
        adapted = self._adapted()
        async with adapted._execute_mutex:
            if adapted._transaction is None and self._refuse is None:
                await adapted._start_transaction()
            try:
                prepared, attributes = await adapted._prepare(
                    sql, self.dialect._invalidate_schema_cache_asof
                )
                done = await run(prepared)
            except Exception as error:
                await greenlet_spawn(self._raise, error, sql, args)
                raise  # _raise always raises
            return done, prepared.get_statusmsg(), attributes

    def _adapted(self) -> Any:
        """Return SQLAlchemy's adapter of the asyncpg connection (its transaction, its
        prepared statements)."""
        return self.sync_connection._dbapi_connection.dbapi_connection

    def _raise(self, error: Exception, sql: str, args: list[Any]) -> None:
        """Raise `error` as SQLAlchemy would have (a disconnect invalidates the connection)."""
        try:
            self._adapted()._handle_exception(error)
        except Exception as translated:
            self.sync_connection._handle_dbapi_exception(translated, sql, tuple(args), None, None)
        raise error

    async def begin(self) -> AsyncTransaction:
        return await self.wrapped.begin()

    async def close(self) -> None:
        await self.wrapped.close()

    async def invalidate(self, exception: BaseException | None = None) -> None:
        await self.wrapped.invalidate(exception)

    async def run_sync(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        if self._refuse is not None:
            self._refuse()
        return await self.wrapped.run_sync(fn, *args, **kwargs)

    async def exec_driver_sql(self, statement: str, parameters: Any = None) -> Any:
        if self._refuse is not None:
            self._refuse()
        return await self.wrapped.exec_driver_sql(statement, parameters)
