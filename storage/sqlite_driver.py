"""SQLite for the async engine without a thread hop per statement.

aiosqlite runs every statement on its own thread and the event loop awaits each one
(~100 hops and 1.9 s of epoll per 350 commands). A statement on a local file costs a few
microseconds: this dialect runs pysqlite synchronously inside SQLAlchemy's greenlet, so
the async API stays (AsyncEngine, AsyncConnection) while nothing waits on a thread.

Running in the event loop's thread means a blocking `BEGIN IMMEDIATE` must never wait for
a lock held by a coroutine of this same process (it could not run to release it until the
busy timeout). The engine therefore gets a pool of one connection: a second unit of work
waits for the first one's connection on an asyncio queue, not on SQLite's lock.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from sqlalchemy import pool
from sqlalchemy.dialects import registry
from sqlalchemy.dialects.sqlite.pysqlite import SQLiteDialect_pysqlite
from sqlalchemy.engine import URL
from sqlalchemy.util import await_

DRIVER = "clubtd"


async def _done() -> None:
    """Return at once: awaited so SQLAlchemy sees its greenlet yield (no loop turn)."""


class _Cursor(sqlite3.Cursor):
    """A pysqlite cursor that tells SQLAlchemy's greenlet it awaited (AsyncConnection
    refuses a driver that never does)."""

    def execute(self, sql: str, parameters: Any = (), /) -> _Cursor:
        await_(_done())
        return super().execute(sql, parameters)

    def executemany(self, sql: str, parameters: Any, /) -> _Cursor:
        await_(_done())
        return super().executemany(sql, parameters)

    async def _async_soft_close(self) -> None:
        """Keep the rows: a pysqlite cursor is read in this thread, no driver to free."""


class _Connection(sqlite3.Connection):
    def cursor(self, factory: Any = _Cursor) -> Any:
        return super().cursor(factory)


class SyncSQLiteDialect(SQLiteDialect_pysqlite):
    """pysqlite, declared async: its statements run in the caller's greenlet."""

    driver = DRIVER
    is_async = True
    supports_statement_cache = True

    @classmethod
    def import_dbapi(cls) -> Any:
        return sqlite3

    @classmethod
    def get_pool_class(cls, url: URL) -> type[pool.Pool]:
        if cls._is_url_file_db(url):
            return pool.AsyncAdaptedQueuePool
        return pool.StaticPool

    def create_connect_args(self, url: URL) -> Any:
        args, kwargs = super().create_connect_args(url)
        # The pool may hand a connection to another event loop's thread (tests do).
        kwargs["check_same_thread"] = False
        kwargs["factory"] = _Connection
        return args, kwargs


registry.register(f"sqlite.{DRIVER}", __name__, "SyncSQLiteDialect")
