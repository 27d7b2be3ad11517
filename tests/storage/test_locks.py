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


async def test_a_clubs_names_are_held_until_the_transaction_ends(
    engine: AsyncEngine, database_url: str
) -> None:
    """PostgreSQL: a second /register in the club waits for the first's look-alike check
    and insert (an advisory lock keyed by the club); another club's does not."""
    if engine.dialect.name == "sqlite":
        return  # BEGIN IMMEDIATE: one writer at a time already
    import asyncio

    from storage.unit_of_work import unit_of_work_factory

    other_engine = make_engine(database_url)
    other_process = unit_of_work_factory(other_engine)
    async with unit_of_work_factory(engine)() as holder:
        await holder.players.lock_names(1)

        async def lock(club_id: int) -> None:
            async with other_process() as uow:
                await uow.players.lock_names(club_id)

        await asyncio.wait_for(lock(2), timeout=10)  # another club's names: free
        waiting = asyncio.create_task(lock(1))
        await asyncio.sleep(0.3)
        assert not waiting.done()
        await holder.commit()
        await asyncio.wait_for(waiting, timeout=10)
    await other_engine.dispose()
