"""One database transaction on one connection, begun when first used.

What the unit of work needs of a session and no more: SQLAlchemy's ORM session spent a
few hundred microseconds a command on bookkeeping for objects clubtd never maps (issue
17). After `commit` or `rollback` the next use takes a connection and begins a new
transaction, as a session would.

On PostgreSQL every statement is a round trip, so a transaction may hold what it is to
write for a later statement to carry: audit rows (`hold`), and one save (`hold_write`).
The outbox insert takes them into its own statement; any other use of the connection,
and the commit, send them first, so nothing ever reads around them.

A transaction made `lock_free` (PostgreSQL; a command that usually saves one row, tried
first without locks) begins none: BEGIN and COMMIT are two of a /report's four round
trips. Its reads commit as they run and lock nothing; its writes are held, and go in
one last statement that commits by itself and writes only if the tournament it saves is
still at the version read (and the platform's update id still unseen): the outbox
insert's (storage/outbox.py), or, when the command queued no message, the one its commit
sends with the save and the audit rows (`SqlOutbox.write_last`). Anything that does not
fit that, a second write or a version that moved on, raises NeedsLock before anything is
written and sets `must_retry_locked`: the command runs again, in a transaction that
locks.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NoReturn

from sqlalchemy import Insert, insert

from storage.engine import fast, is_sqlite

if TYPE_CHECKING:
    from sqlalchemy import Table
    from sqlalchemy.ext.asyncio import AsyncTransaction

    from storage.engine import Database, DatabaseConnection
    from storage.sqlite_driver import SQLiteTransaction


@functools.cache
def _insert(table: Table) -> Insert:
    return insert(table)


class NeedsLock(RuntimeError):
    """A lock-free unit of work met what only a locked one may do; nothing was written."""


@dataclass(frozen=True, slots=True)
class HeldWrite:
    """A write that waits for the next statement, to go in the same round trip (or is
    sent before it): `check` gets its row count and raises if the write did not happen.
    `unseen`: the same write, made only while the platform update id bound as u_platform
    and u_update_id is not among the processed ones (a lock-free unit of work's)."""

    statement: Any
    params: Mapping[str, Any]
    check: Callable[[int], None]
    unseen: Any = None


class Transaction:
    """A connection and its transaction, taken lazily from `bind`; the connection goes
    back to the pool when the transaction ends (SQLite's pool holds one)."""

    def __init__(self, bind: Database, *, lock_free: bool = False) -> None:
        self.bind = bind
        self._conn: DatabaseConnection | None = None
        self._tx: AsyncTransaction | SQLiteTransaction | None = None
        self._held: dict[Table, list[Mapping[str, Any]]] = {}
        self._write: HeldWrite | None = None
        # SQLite's transactions cost no round trip: there it locks as ever.
        self.lock_free = lock_free and not is_sqlite(bind)
        self.must_retry_locked = False
        self._sealed = False  # lock-free: its last statement went (and committed)

    def needs_lock(self, why: str = "it writes more than one statement") -> NoReturn:
        """Give up a lock-free unit of work: its command must run again, locked."""
        if self._sealed:
            # Its last statement committed: running the command again would repeat it.
            raise RuntimeError(f"a lock-free unit of work wrote after its last statement: {why}")
        self.must_retry_locked = True
        raise NeedsLock(f"lock-free unit of work: {why}")

    @property
    def sealed(self) -> bool:
        """Whether a lock-free unit of work's last statement went (it committed)."""
        return self._sealed

    @property
    def holds_write(self) -> bool:
        """Whether a save is held for the next statement."""
        return self._write is not None

    def seal(self) -> None:
        """Note that the lock-free unit of work's last statement went: it wrote, and
        committed (it needs no commit, and may write no more)."""
        self._sealed = True

    async def connection(self, *, keep_write: bool = False) -> DatabaseConnection:
        """Return the connection, in a transaction (both begun now if none is). A held
        write is sent first, so whatever runs next sees it, unless the caller takes it
        into its own statement (`keep_write`, then `take_write`)."""
        conn = self._conn
        if conn is None:
            conn = await self.bind.connect()
            if self.lock_free:
                self._conn = conn = fast(conn, self.needs_lock)
            else:
                try:
                    self._tx = await conn.begin()
                except BaseException:
                    await conn.close()
                    raise
                self._conn = conn = fast(conn)
        if self._write is not None and not keep_write:
            write, self._write = self._write, None
            write.check((await conn.execute(write.statement, write.params)).rowcount)
        return conn

    async def hold_write(self, write: HeldWrite) -> None:
        """Keep `write` for the next statement to send with it (one held at a time)."""
        if self._write is not None:
            await self.connection()  # sends the one held before
        self._write = write

    def take_write(self) -> HeldWrite | None:
        """Return the held write, now the caller's to send and check."""
        write, self._write = self._write, None
        return write

    def hold(self, table: Table, rows: Sequence[Mapping[str, Any]]) -> None:
        """Keep rows to insert into `table` until a statement takes them to write in its
        own round trip (`take_held`), or until the commit writes them."""
        self._held.setdefault(table, []).extend(rows)

    def take_held(self, table: Table) -> list[Mapping[str, Any]]:
        """Return the rows held for `table`, now the caller's to write."""
        return self._held.pop(table, [])

    def take_held_tables(self) -> dict[Table, list[Mapping[str, Any]]]:
        """Return every table's held rows, now the caller's to write."""
        held, self._held = {k: v for k, v in self._held.items() if v}, {}
        return held

    async def write_held(self, table: Table | None = None) -> None:
        """Insert the rows held for `table` (every table's when None), one statement each."""
        for held in [table] if table is not None else list(self._held):
            rows = self.take_held(held)
            if rows:
                await (await self.connection()).execute(_insert(held), rows)

    async def commit(self) -> None:
        if self.lock_free:
            try:
                if self.must_retry_locked:
                    raise NeedsLock("lock-free unit of work: it met what needs a lock")
                if not self._sealed and (self._write is not None or any(self._held.values())):
                    self.needs_lock("what it holds would take more than one statement")
            except BaseException:
                await self._end(commit=False)
                raise
            await self._end(commit=True)
            return
        try:
            if self._write is not None:
                await self.connection()  # sends it
            await self.write_held()
        except BaseException:
            await self._end(commit=False)
            raise
        await self._end(commit=True)

    async def rollback(self) -> None:
        """Undo what is not committed; the connection goes back to the pool either way."""
        await self._end(commit=False)

    async def _end(self, *, commit: bool) -> None:
        conn, tx = self._conn, self._tx
        self._conn = self._tx = None
        self._held.clear()  # never written: what a rollback undoes anyway
        self._write = None
        if conn is None:
            return
        try:
            if tx is not None and tx.is_active:
                await (tx.commit() if commit else tx.rollback())
        finally:
            await conn.close()
