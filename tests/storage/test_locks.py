"""The scheduler's leader lock (ARCHITECTURE idea 3)."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from storage import SchedulerLock, make_engine


async def test_one_leader_at_a_time(engine: AsyncEngine, database_url: str) -> None:
    """PostgreSQL: a second process cannot lead until the first releases; SQLite: one
    process, always the leader."""
    other_process = make_engine(database_url)
    first, second = SchedulerLock(engine), SchedulerLock(other_process)
    try:
        assert await first.acquire() is True
        assert await first.acquire() is True  # still ours
        if engine.dialect.name == "sqlite":
            assert await second.acquire() is True
            return
        assert await second.acquire() is False
        await first.release()
        assert await second.acquire() is True
        assert await first.acquire() is False
        await second.release()
        assert await first.acquire() is True
    finally:
        await first.release()
        await second.release()
        await other_process.dispose()
