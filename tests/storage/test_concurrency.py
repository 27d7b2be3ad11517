"""Concurrent writers of one tournament: no lost update, no "database is locked"."""

from __future__ import annotations

import asyncio

from tests.storage.conftest import UowFactory, club_with_players, midway

WRITERS = 8


async def test_eight_writers_of_one_tournament_lose_nothing(uow_factory: UowFactory) -> None:
    """SQLite: BEGIN IMMEDIATE and the busy timeout queue them; PostgreSQL: the row lock."""
    club_id = await club_with_players(uow_factory, 12)
    state = midway(12)
    async with uow_factory() as uow:
        await uow.tournaments.add(club_id, state, {})
        await uow.commit()
    numbers = sorted(state.matches)[:WRITERS]
    assert len(numbers) == WRITERS
    start = asyncio.Event()

    async def writer(index: int) -> None:
        await start.wait()
        async with uow_factory() as uow:
            loaded = await uow.tournaments.get(state.id, for_update=True)
            # Give every other writer the chance to run between our read and our write.
            await asyncio.sleep(0.01)
            loaded.matches[numbers[index]].black_score = index + 1
            await uow.tournaments.save(loaded)
            await uow.commit()

    tasks = [asyncio.create_task(writer(i)) for i in range(WRITERS)]
    start.set()
    results = await asyncio.gather(*tasks, return_exceptions=True)
    assert [r for r in results if r is not None] == []
    async with uow_factory() as uow:
        final = await uow.tournaments.get(state.id)
    assert [final.matches[n].black_score for n in numbers] == list(range(1, WRITERS + 1))
    untouched = [n for n in final.matches if n not in numbers]
    assert all(final.matches[n] == state.matches[n] for n in untouched)
