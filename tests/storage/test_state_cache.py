"""The per-process cache of loaded tournaments never hides a change or a rollback."""

from __future__ import annotations

from typing import Any

from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine

from storage.unit_of_work import SqlUnitOfWorkFactory, unit_of_work_factory
from tests.storage.conftest import club_with_players, midway, open_matches


async def _stored(engine: AsyncEngine) -> tuple[SqlUnitOfWorkFactory, int]:
    """Return a factory (its own cache) and a stored tournament of 12 players midway."""
    factory = unit_of_work_factory(engine)
    club_id = await club_with_players(factory, 12)
    async with factory() as uow:
        tournament_id = (await uow.tournaments.add(club_id, midway(12), {})).id
        await uow.commit()
    return factory, tournament_id


async def test_a_committed_change_is_what_the_next_unit_of_work_sees(engine: AsyncEngine) -> None:
    factory, tournament_id = await _stored(engine)
    async with factory() as uow:
        state = await uow.tournaments.get(tournament_id, for_update=True)
        number = open_matches(state)[0]
        state.matches[number].white_score = 2
        await uow.tournaments.save(state)
        await uow.commit()
    async with factory() as uow:
        again = await uow.tournaments.get(tournament_id, for_update=True)
        assert again is state  # served from the cache, no decoding
        assert again.matches[number].white_score == 2


async def test_a_rolled_back_change_leaves_the_cache(engine: AsyncEngine) -> None:
    factory, tournament_id = await _stored(engine)
    async with factory() as uow:
        state = await uow.tournaments.get(tournament_id, for_update=True)
    async with factory() as uow:
        state = await uow.tournaments.get(tournament_id, for_update=True)
        number = open_matches(state)[0]
        state.matches[number].white_score = 2
        await uow.tournaments.save(state)  # saved, but never committed
    async with factory() as uow:
        again = await uow.tournaments.get(tournament_id, for_update=True)
        assert again is not state
        assert again.matches[number].white_score == 0


async def test_a_change_from_another_process_is_seen(engine: AsyncEngine) -> None:
    ours, theirs = unit_of_work_factory(engine), unit_of_work_factory(engine)
    club_id = await club_with_players(ours, 12)
    async with ours() as uow:
        tournament_id = (await uow.tournaments.add(club_id, midway(12), {})).id
        await uow.commit()
    async with ours() as uow:
        cached = await uow.tournaments.get(tournament_id, for_update=True)
        await uow.commit()
    number = open_matches(cached)[0]
    async with theirs() as uow:
        state = await uow.tournaments.get(tournament_id, for_update=True)
        state.matches[number].white_score = 2
        await uow.tournaments.save(state)
        await uow.commit()
    async with ours() as uow:
        again = await uow.tournaments.get(tournament_id, for_update=True)
        assert again.matches[number].white_score == 2


async def test_a_rolled_back_unit_of_work_that_changed_nothing_keeps_the_cache(
    engine: AsyncEngine,
) -> None:
    """A refused command rolls back; if it left the state as loaded, the next command
    is served from the cache instead of decoding the whole tournament again."""
    factory, tournament_id = await _stored(engine)
    async with factory() as uow:
        state = await uow.tournaments.get(tournament_id, for_update=True)
        await uow.commit()
    async with factory() as uow:
        assert await uow.tournaments.get(tournament_id, for_update=True) is state
        # no commit: a refusal
    async with factory() as uow:
        assert await uow.tournaments.get(tournament_id, for_update=True) is state


async def test_a_rolled_back_change_never_saved_leaves_the_cache(engine: AsyncEngine) -> None:
    factory, tournament_id = await _stored(engine)
    async with factory() as uow:
        state = await uow.tournaments.get(tournament_id, for_update=True)
        await uow.commit()
    async with factory() as uow:
        state = await uow.tournaments.get(tournament_id, for_update=True)
        number = open_matches(state)[0]
        state.matches[number].white_score = 2  # changed in memory, then refused
    async with factory() as uow:
        again = await uow.tournaments.get(tournament_id, for_update=True)
        assert again is not state
        assert again.matches[number].white_score == 0


async def test_a_reader_that_did_not_commit_keeps_a_state_of_its_own(engine: AsyncEngine) -> None:
    """A state read without committing may be held on to by its reader (a web page, a
    test): it leaves the cache, so the next command never changes the reader's object."""
    factory, tournament_id = await _stored(engine)
    async with factory() as uow:
        await uow.tournaments.get(tournament_id, for_update=True)
        await uow.commit()
    async with factory(read_only=True) as uow:
        read = await uow.tournaments.get(tournament_id)
    async with factory() as uow:
        assert await uow.tournaments.get(tournament_id, for_update=True) is not read


async def test_a_state_taken_for_update_and_left_unchanged_is_cached_again(
    engine: AsyncEngine,
) -> None:
    """After a reader left the cache empty (it loaded the state and did not commit), a
    refused command (taken for update, changed nothing, rolled back) puts the state back:
    the next one is not a whole load."""
    factory, tournament_id = await _stored(engine)
    async with factory(read_only=True) as uow:
        await uow.tournaments.get(tournament_id)
    async with factory() as uow:
        refused = await uow.tournaments.get(tournament_id, for_update=True)
    async with factory() as uow:
        assert await uow.tournaments.get(tournament_id, for_update=True) is refused


async def test_a_look_up_between_two_commands_costs_the_next_one_no_load(
    engine: AsyncEngine,
) -> None:
    """A reader of a cached state gets a copy of its own (changing it changes nothing
    stored or cached), and the next command still takes the cached state."""
    factory, tournament_id = await _stored(engine)
    async with factory() as uow:
        cached = await uow.tournaments.get(tournament_id, for_update=True)
        await uow.commit()
    number = open_matches(cached)[0]
    async with factory(read_only=True) as uow:
        read = await uow.tournaments.get(tournament_id)
    assert read is not cached
    assert read.matches == cached.matches
    read.matches[number].white_score = 3
    async with factory() as uow:
        again = await uow.tournaments.get(tournament_id, for_update=True)
        assert again is cached
        assert again.matches[number].white_score == 0


async def test_a_version_listed_in_the_transaction_spares_the_version_query(
    engine: AsyncEngine,
) -> None:
    """A writing command lists its club's tournaments (locked) and then takes the one it
    means: the listed version finds the cached state. Once saved, the listed version is
    stale: taking the state again still gives this unit of work's own, saved again."""
    factory = unit_of_work_factory(engine)
    club_id = await club_with_players(factory, 12)
    async with factory() as uow:
        tournament_id = (await uow.tournaments.add(club_id, midway(12), {})).id
        await uow.commit()
    async with factory() as uow:
        cached = await uow.tournaments.get(tournament_id, for_update=True)
        await uow.commit()
    seen: list[str] = []

    def record(*args: Any) -> None:
        seen.append(args[2])

    async with factory() as uow:
        event.listen(engine.sync_engine, "before_cursor_execute", record)
        try:
            await uow.tournaments.list(club_id, for_update=True)
            state = await uow.tournaments.get(tournament_id, for_update=True)
        finally:
            event.remove(engine.sync_engine, "before_cursor_execute", record)
        assert state is cached
        assert [s for s in seen if "FROM tournaments" in s] == [seen[-1]]  # the list only
        number = open_matches(state)[0]
        state.matches[number].white_score = 1
        await uow.tournaments.save(state)
        again = await uow.tournaments.get(tournament_id, for_update=True)
        again.matches[number].white_score = 2
        await uow.tournaments.save(again)
        await uow.commit()
    async with factory(read_only=True) as uow:
        stored = await uow.tournaments.get(tournament_id)
        assert stored.matches[number].white_score == 2


async def test_two_lock_free_units_of_work_never_share_one_state(engine: AsyncEngine) -> None:
    """Lock-free (PostgreSQL), two commands of one process may hold one tournament at
    once: the second gets a state of its own, never the object the first is changing."""
    factory, tournament_id = await _stored(engine)
    async with factory() as uow:
        await uow.tournaments.get(tournament_id, for_update=True)  # cached now
    async with factory(lock_free=True) as first:
        mine = await first.tournaments.get(tournament_id, for_update=True)
        number = open_matches(mine)[0]
        mine.matches[number].white_score = 2  # not saved yet
        async with factory(lock_free=True) as second:
            if not second.transaction.lock_free:
                return  # SQLite: its one writer at a time never gets this far
            theirs = await second.tournaments.get(tournament_id, for_update=True)
            assert theirs is not mine
            assert theirs.matches[number].white_score == 0
            # The first's own second look is its own state still.
            assert await first.tournaments.get(tournament_id, for_update=True) is mine
