"""The async engine: SQLite (WAL, BEGIN IMMEDIATE) by default, PostgreSQL by URL."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any, NoReturn, TypeAlias

from sqlalchemy import event
from sqlalchemy.engine import URL, Connection, make_url
from sqlalchemy.exc import DisconnectionError

from storage import sqlite_driver
from storage.compiled import READ_ONLY

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

    from storage.postgres_driver import PostgresConnection

# SQLite runs in the caller's thread (storage/sqlite_driver); PostgreSQL through
# SQLAlchemy's asyncio engine, imported only then (it brings the whole ORM).
Database: TypeAlias = "AsyncEngine | sqlite_driver.SQLiteEngine"
DatabaseConnection: TypeAlias = (
    "AsyncConnection | sqlite_driver.SQLiteConnection | PostgresConnection"
)

SQLITE_PRAGMAS: tuple[str, ...] = (
    "PRAGMA journal_mode=WAL",
    "PRAGMA foreign_keys=ON",
    "PRAGMA busy_timeout=10000",
    "PRAGMA synchronous=NORMAL",
    # The log is copied back in a worker thread, not in a command's commit (sqlite_driver).
    "PRAGMA wal_autocheckpoint=0",
)


_SQLITE_DRIVERS = {
    "sqlite",
    "sqlite+pysqlite",
    "sqlite+aiosqlite",
    f"sqlite+{sqlite_driver.DRIVER}",
}
_POSTGRES_DRIVERS = {
    "postgres",
    "postgresql",
    "postgresql+asyncpg",
    "postgresql+psycopg",
    "postgresql+psycopg2",
    "postgresql+psycopg_async",
}


def async_url(url: str | URL) -> URL:
    """Return the URL with its driver: pysqlite in the caller's thread (storage/sqlite_driver)
    for SQLite, asyncpg for PostgreSQL."""
    parsed = make_url(url)
    driver = parsed.drivername
    if driver in _SQLITE_DRIVERS:
        return parsed.set(drivername=f"sqlite+{sqlite_driver.DRIVER}")
    if driver in _POSTGRES_DRIVERS:
        query = dict(parsed.query)
        # libpq spells TLS "sslmode"; asyncpg takes the same values as "ssl".
        if "sslmode" in query:
            query["ssl"] = query.pop("sslmode")
        return parsed.set(drivername="postgresql+asyncpg", query=query)
    raise ValueError(f"unsupported database URL scheme {driver!r}: use sqlite or postgresql")


def is_sqlite(engine: Database) -> bool:
    """Return whether the engine talks to SQLite."""
    return engine.dialect.name == "sqlite"


def make_engine(url: str | URL, **options: Any) -> Database:
    """Return the engine for a settings URL (`sqlite:///clubtd.db`, `postgresql://...`)."""
    target = async_url(url)
    if target.get_backend_name() == "sqlite":
        # One connection: units of work queue for it in the event loop (sqlite_driver).
        lite = sqlite_driver.sqlite_engine(target, **options)
        _tune_sqlite(lite)
        return lite
    from sqlalchemy.ext.asyncio import create_async_engine

    # Twenty connections kept, none beyond: an overflow connection is closed as soon as it
    # is given back, and under a burst (a round's reports, the load bench's 100 clubs)
    # each unit of work over ten opened a new one: a PostgreSQL backend forked and its
    # statements planned again, 4,600 connections in three minutes (bench.load, 300 clubs).
    # The most a process holds is twenty, as before; more wait for one in the pool.
    options.setdefault("pool_size", 20)
    options.setdefault("max_overflow", 0)
    engine = create_async_engine(target, **options)
    if not options.get("pool_pre_ping"):
        _ping_when_idle(engine)
    return engine


# A connection given back moments ago is alive: pinging it before every unit of work
# (pool_pre_ping) cost a round trip of the ~12 of a /report (issue 17). One idle longer
# than this (PostgreSQL may have restarted meanwhile) is pinged first, and replaced if dead.
IDLE_PING_AFTER = 5.0  # seconds


def _ping_when_idle(engine: AsyncEngine) -> None:
    dialect = engine.dialect

    @event.listens_for(engine.sync_engine, "checkin")
    def _on_checkin(_dbapi_connection: Any, record: Any) -> None:
        record.info["idle_since"] = time.monotonic()

    @event.listens_for(engine.sync_engine, "checkout")
    def _on_checkout(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        idle_since = record.info.get("idle_since")
        if idle_since is not None and time.monotonic() - idle_since < IDLE_PING_AFTER:
            return
        try:
            dialect.do_ping(dbapi_connection)
        except Exception as error:
            # The pool throws this connection away and checks out another (three tries).
            raise DisconnectionError("the connection was closed while idle") from error


def _tune_sqlite(engine: sqlite_driver.SQLiteEngine) -> None:
    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Take BEGIN away from the driver: we emit BEGIN IMMEDIATE ourselves, below.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        try:
            for pragma in SQLITE_PRAGMAS:
                cursor.execute(pragma)
        finally:
            cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(connection: Connection) -> None:
        # A read-only unit of work (a look-up, the sender's reads) never takes the write
        # lock: in WAL it reads a snapshot while another process writes. Every other
        # transaction takes the write lock up front, so two read-then-write transactions
        # queue on busy_timeout instead of failing with "database is locked".
        begin = "BEGIN" if connection.get_execution_options().get(READ_ONLY) else "BEGIN IMMEDIATE"
        sqlite_driver.begin(connection, begin)


def one_statement(engine: Database) -> Database:
    """Return the engine's twin for work of one statement (same pool): on PostgreSQL each
    statement commits by itself, without the BEGIN and COMMIT round trips a transaction
    costs (two of three for an outbox mark, issue 17); on SQLite the engine itself, whose
    transactions cost no round trip. Reads through it see what is committed as they run,
    as PostgreSQL's READ COMMITTED statements do anyway."""
    return engine if is_sqlite(engine) else engine.execution_options(isolation_level="AUTOCOMMIT")


def reader(engine: Database) -> Database:
    """Return the engine's read-only twin (same pool): on SQLite its transactions begin
    DEFERRED, taking no write lock; on PostgreSQL it is the engine itself."""
    return engine.execution_options(**{READ_ONLY: True}) if is_sqlite(engine) else engine


@asynccontextmanager
async def begin(engine: Database) -> AsyncIterator[DatabaseConnection]:
    """`async with begin(engine) as conn`: engine.begin(), statements sent straight to
    asyncpg on PostgreSQL (storage/postgres_driver)."""
    async with engine.begin() as conn:
        yield fast(conn)


@asynccontextmanager
async def connect(engine: Database) -> AsyncIterator[DatabaseConnection]:
    """`async with connect(engine) as conn`: engine.connect(), statements sent straight to
    asyncpg on PostgreSQL (storage/postgres_driver)."""
    async with engine.connect() as conn:
        yield fast(conn)


def fast(conn: Any, refuse: Callable[[], NoReturn] | None = None) -> DatabaseConnection:
    """Return the connection, its statements sent straight to asyncpg on PostgreSQL
    (`refuse`: lock-free there, see storage/postgres_driver)."""
    if conn.dialect.name != "postgresql":
        return conn  # type: ignore[no-any-return]
    from storage.postgres_driver import PostgresConnection

    return PostgresConnection(conn, refuse)
