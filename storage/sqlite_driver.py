"""SQLite with the async engine's API, run synchronously in the caller's thread.

A statement on a local file costs a few microseconds. aiosqlite ran each one on a thread
the event loop awaited (~100 hops and 1.9 s of epoll per 350 commands); SQLAlchemy's
asyncio layer over a synchronous driver still cost a greenlet switch per statement (25 us
a statement against 13 us, issue 17) and its import the whole ORM. So SQLite gets
SQLAlchemy's synchronous engine behind the few awaitable methods the storage layer uses
(`connect`, `begin`, `execute`, `run_sync`, ...), the same as AsyncEngine's; and a
Core statement it can run goes to sqlite3 directly, compiled once (storage/compiled:
~32 us a look-up against ~51 us through SQLAlchemy's execution).

Running in the event loop's thread means a blocking `BEGIN IMMEDIATE` must never wait for
a lock held by a coroutine of this same process (it could not run to release it until the
busy timeout). The engine therefore hands its one connection to one holder at a time: a
second unit of work waits for it at the `_Gate`, in the event loop, not on SQLite's lock.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections import deque
from collections.abc import Callable, Generator, Mapping, Sequence
from types import TracebackType
from typing import Any, Concatenate, ParamSpec, Self, TypeVar

from sqlalchemy import create_engine, event, pool
from sqlalchemy.dialects import registry
from sqlalchemy.dialects.sqlite.pysqlite import SQLiteDialect_pysqlite
from sqlalchemy.engine import URL, Connection, CursorResult, Dialect, Engine, RootTransaction
from sqlalchemy.sql import Executable

from storage.compiled import FastResult, Ready, arguments, result, runnable

DRIVER = "clubtd"

_P = ParamSpec("_P")
_T = TypeVar("_T")


class SyncSQLiteDialect(SQLiteDialect_pysqlite):
    """pysqlite, with a connection any thread may use (one holder at a time, see _Gate)."""

    driver = DRIVER
    supports_statement_cache = True

    @classmethod
    def get_pool_class(cls, url: URL) -> type[pool.Pool]:
        return pool.QueuePool if cls._is_url_file_db(url) else pool.StaticPool

    def create_connect_args(self, url: URL) -> Any:
        args, kwargs = super().create_connect_args(url)
        # Tests hand an engine from one event loop's thread to another's.
        kwargs["check_same_thread"] = False
        return args, kwargs


registry.register(f"sqlite.{DRIVER}", __name__, "SyncSQLiteDialect")


class _Gate:
    """One holder at a time, the others waiting in their event loops (any thread's)."""

    def __init__(self) -> None:
        self._mutex = threading.Lock()
        self._held = False
        self._waiting: deque[tuple[asyncio.AbstractEventLoop, asyncio.Future[None]]] = deque()

    async def enter(self) -> None:
        with self._mutex:
            if not self._held:
                self._held = True
                return
            loop = asyncio.get_running_loop()
            turn: asyncio.Future[None] = loop.create_future()
            self._waiting.append((loop, turn))
        try:
            await turn
        except asyncio.CancelledError:
            with self._mutex:
                if (loop, turn) in self._waiting:
                    self._waiting.remove((loop, turn))
                    raise
            if turn.done() and not turn.cancelled():
                self.leave()  # handed over as we were cancelled: pass it on
            raise  # else `_hand` sees the cancelled turn and passes it on

    def leave(self) -> None:
        with self._mutex:
            if not self._waiting:
                self._held = False
                return
            loop, turn = self._waiting.popleft()
        loop.call_soon_threadsafe(self._hand, turn)

    def _hand(self, turn: asyncio.Future[None]) -> None:
        if turn.cancelled():
            self.leave()
        else:
            turn.set_result(None)


# Commits between two checkpoints of the write-ahead log (see _Checkpointer).
CHECKPOINT_EVERY = 100


class _Checkpointer:
    """Copy the write-ahead log into the database file in a worker thread.

    SQLite does it itself (wal_autocheckpoint) inside the commit that fills the log, with
    an fsync: that commit took ~5 ms instead of ~0.1, the tail of every command bench.
    The connections turn that off (storage/engine.py) and this runs a PASSIVE checkpoint,
    which waits for nobody, on its own connection every CHECKPOINT_EVERY commits.
    """

    def __init__(self, path: str) -> None:
        self._path = path
        self._commits = 0
        self._running = threading.Lock()

    def committed(self) -> None:
        self._commits += 1
        if self._commits < CHECKPOINT_EVERY or not self._running.acquire(blocking=False):
            return
        self._commits = 0
        try:
            asyncio.get_running_loop().run_in_executor(None, self._run)
        except RuntimeError:  # no event loop to hand the thread to: next time
            self._running.release()

    def _run(self) -> None:
        try:
            conn = sqlite3.connect(self._path, timeout=0, isolation_level=None)
            try:
                conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
            finally:
                conn.close()
        except sqlite3.Error:
            pass  # busy or gone: the next round copies what this one did not
        finally:
            self._running.release()


class SQLiteEngine:
    """SQLAlchemy's synchronous engine with AsyncEngine's methods, awaited."""

    def __init__(
        self,
        sync_engine: Engine,
        gate: _Gate | None = None,
        checkpointer: _Checkpointer | None = None,
    ) -> None:
        self.sync_engine = sync_engine
        self._gate = gate or _Gate()
        database = sync_engine.url.database
        if checkpointer is None and database not in (None, "", ":memory:"):
            checkpointer = _Checkpointer(database)
            # Every commit of the engine's connections (its twins' too) is counted.
            event.listen(sync_engine, "commit", lambda _conn: checkpointer.committed())
        self._checkpointer = checkpointer

    @property
    def dialect(self) -> Dialect:
        return self.sync_engine.dialect

    @property
    def url(self) -> URL:
        return self.sync_engine.url

    def connect(self) -> SQLiteConnection:
        """Return a connection, taken when awaited or entered."""
        return SQLiteConnection(self)

    def begin(self) -> _Begun:
        """Return a context that yields a connection in a transaction, committed on exit."""
        return _Begun(self)

    def execution_options(self, **options: Any) -> SQLiteEngine:
        """Return a twin whose connections carry `options`; it shares the connection."""
        twin = self.sync_engine.execution_options(**options)
        return SQLiteEngine(twin, self._gate, self._checkpointer)

    async def dispose(self) -> None:
        self.sync_engine.dispose()


class _Startable:
    """Started when awaited or entered, as SQLAlchemy's asyncio objects are."""

    async def start(self) -> Self:
        raise NotImplementedError

    def started(self) -> bool:
        raise NotImplementedError

    def __await__(self) -> Generator[Any, None, Self]:
        return self.start().__await__()

    async def __aenter__(self) -> Self:
        return self if self.started() else await self.start()


class SQLiteConnection(_Startable):
    """One synchronous connection, held from `start` until `close`."""

    def __init__(self, engine: SQLiteEngine) -> None:
        self.engine = engine
        self._sync: Connection | None = None

    @property
    def sync_connection(self) -> Connection:
        if self._sync is None:
            raise RuntimeError("the connection is not started: await it or use async with")
        return self._sync

    @property
    def dialect(self) -> Dialect:
        return self.engine.dialect

    async def start(self) -> SQLiteConnection:
        gate = self.engine._gate
        await gate.enter()
        try:
            self._sync = self.engine.sync_engine.connect()
        except BaseException:
            gate.leave()
            raise
        return self

    def started(self) -> bool:
        return self._sync is not None

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    async def close(self) -> None:
        """Give the connection back (what is not committed is rolled back)."""
        conn, self._sync = self._sync, None
        if conn is None:
            return
        try:
            conn.close()
        finally:
            self.engine._gate.leave()

    async def invalidate(self) -> None:
        self.sync_connection.invalidate()

    async def execution_options(self, **options: Any) -> SQLiteConnection:
        self.sync_connection.execution_options(**options)
        return self

    async def execute(
        self,
        statement: Executable,
        parameters: Any = None,
        *,
        execution_options: Mapping[str, Any] | None = None,
    ) -> Any:
        """Run one statement on sqlite3 directly when it can (storage/compiled), else
        through SQLAlchemy."""
        sync = self.sync_connection
        ready = runnable(sync, statement, parameters) if execution_options is None else None
        if ready is not None:
            return _run(sync, *ready)
        return sync.execute(statement, parameters, execution_options=execution_options)

    async def exec_driver_sql(self, statement: str, parameters: Any = None) -> CursorResult[Any]:
        return self.sync_connection.exec_driver_sql(statement, parameters)

    async def run_sync(
        self, fn: Callable[Concatenate[Connection, _P], _T], *args: _P.args, **kwargs: _P.kwargs
    ) -> _T:
        return fn(self.sync_connection, *args, **kwargs)

    def begin(self) -> SQLiteTransaction:
        return SQLiteTransaction(self)


def _run(sync: Connection, found: Ready, sets: Sequence[Mapping[str, Any] | None]) -> FastResult:
    """Run a compiled statement on the sqlite3 connection, in SQLAlchemy's transaction."""
    if not sync.in_transaction():
        sync._autobegin()  # BEGIN (DEFERRED or IMMEDIATE) through the engine's event
    cursor = sync.connection.driver_connection.cursor()  # type: ignore[union-attr]
    sql, args = arguments(found, sets[0])
    try:
        if len(sets) == 1:
            cursor.execute(sql, args)
            rows = cursor.fetchall() if found.plan.returns_rows else ()
        else:
            cursor.executemany(sql, [arguments(found, one)[1] for one in sets])
            rows = ()
        done = result(found, rows, cursor.rowcount, [None] * len(cursor.description or ()))
    except Exception as error:
        sync._handle_dbapi_exception(error, sql, tuple(args), cursor, None)  # raises
        raise
    finally:
        cursor.close()
    return done


def begin(sync: Connection, statement: str) -> None:
    """Send BEGIN on the sqlite3 connection itself: SQLAlchemy's own execution of one
    driver statement cost more than the BEGIN (errors are still SQLAlchemy's)."""
    dbapi = sync.connection.driver_connection
    try:
        dbapi.execute(statement)  # type: ignore[union-attr]
    except Exception as error:
        sync._handle_dbapi_exception(error, statement, (), None, None)  # raises
        raise


class SQLiteTransaction(_Startable):
    """A connection's transaction, begun when awaited or entered."""

    def __init__(self, conn: SQLiteConnection) -> None:
        self._conn = conn
        self._tx: RootTransaction | None = None

    async def start(self) -> SQLiteTransaction:
        self._tx = self._conn.sync_connection.begin()
        return self

    def started(self) -> bool:
        return self._tx is not None

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await (self.rollback() if kind is not None else self.commit())

    @property
    def is_active(self) -> bool:
        return self._tx is not None and self._tx.is_active

    async def commit(self) -> None:
        if self._tx is not None and self._tx.is_active:
            self._tx.commit()

    async def rollback(self) -> None:
        if self._tx is not None and self._tx.is_active:
            self._tx.rollback()


class _Begun:
    """`async with engine.begin() as conn`: connect, begin, commit (or roll back), close."""

    def __init__(self, engine: SQLiteEngine) -> None:
        self._conn = SQLiteConnection(engine)
        self._tx = SQLiteTransaction(self._conn)

    async def __aenter__(self) -> SQLiteConnection:
        conn = await self._conn.start()
        try:
            await self._tx.start()
        except BaseException:
            await conn.close()
            raise
        return conn

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        try:
            await self._tx.__aexit__(kind, error, tb)
        finally:
            await self._conn.close()


def sqlite_engine(url: URL, **options: Any) -> SQLiteEngine:
    """Return the engine for a `sqlite+clubtd` URL: one connection, handed out in turn."""
    options.setdefault("pool_size", 1)
    options.setdefault("max_overflow", 0)
    if url.database in (None, "", ":memory:"):
        options.pop("pool_size")
        options.pop("max_overflow")
    return SQLiteEngine(create_engine(url, **options))
