"""Leader election for the scheduler: a PostgreSQL advisory lock (ARCHITECTURE idea 3).

The lock lives as long as the session that took it, so the lock holds a dedicated
connection open while it leads; if the process dies, PostgreSQL drops the connection
and the lock, and another process's next `acquire()` wins. SQLite means one process:
there `acquire()` is always True.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

# 'clubtd' in ASCII: one fixed key, so every process of one database competes for it.
SCHEDULER_LOCK_KEY = 0x636C_7562_7464


class SchedulerLock:
    """A non-blocking, session-level advisory lock held on its own connection."""

    def __init__(self, engine: AsyncEngine, key: int = SCHEDULER_LOCK_KEY) -> None:
        self._engine = engine
        self._key = key
        self._conn: AsyncConnection | None = None

    @property
    def held(self) -> bool:
        """Return whether this lock believes it leads."""
        return self._conn is not None or self._engine.dialect.name == "sqlite"

    async def acquire(self) -> bool:
        """Try to become the leader without waiting; return whether this process leads."""
        if self._engine.dialect.name == "sqlite":
            return True
        if self._conn is not None:
            if await self._alive(self._conn):
                return True
            await self._drop()
        # AUTOCOMMIT: the lock belongs to the session, and no transaction stays open.
        conn = await (await self._engine.connect()).execution_options(isolation_level="AUTOCOMMIT")
        try:
            query = text("SELECT pg_try_advisory_lock(:key)")
            got = bool((await conn.execute(query, {"key": self._key})).scalar_one())
        except BaseException:
            await conn.close()
            raise
        if not got:
            await conn.close()
            return False
        self._conn = conn
        return True

    async def release(self) -> None:
        """Stop leading: unlock and give the connection back."""
        conn, self._conn = self._conn, None
        if conn is None:
            return
        try:
            await conn.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": self._key})
        except DBAPIError:
            # Never hand a pooled connection back that may still hold the lock.
            await conn.invalidate()
        finally:
            await conn.close()

    async def _alive(self, conn: AsyncConnection) -> bool:
        try:
            await conn.execute(text("SELECT 1"))
        except DBAPIError:
            return False
        return True

    async def _drop(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            try:
                await conn.invalidate()
            finally:
                await conn.close()
