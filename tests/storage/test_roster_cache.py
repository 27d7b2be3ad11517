"""The club's roster (players, accounts, directors, the chats it announces in) is
cached per process against the club's roster version (issue 17): a look-up costs no
statement once cached, and every change, rolled back, committed here or in another
process, is seen at once."""

from __future__ import annotations

from datetime import UTC, date, datetime

from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine

from storage import make_engine
from storage.unit_of_work import unit_of_work_factory

NOW = datetime(2026, 1, 31, 20, 0, tzinfo=UTC)


async def _club_with_ana(engine: AsyncEngine) -> int:
    async with unit_of_work_factory(engine)() as uow:
        club = await uow.clubs.add("Club", "UTC", "en", NOW)
        await uow.clubs.link_chat(club.id, "console", "club")
        ana = await uow.players.add(club.id, "Ana", NOW)
        await uow.players.add_account(ana.id, "console", "ana")
        await uow.commit()
    return club.id


async def test_a_cached_roster_answers_without_a_statement(engine: AsyncEngine) -> None:
    await _club_with_ana(engine)
    factory = unit_of_work_factory(engine)
    statements: list[str] = []

    def seen(_conn: object, _cursor: object, statement: str, *_args: object) -> None:
        statements.append(statement)

    for _ in range(3):  # loaded by the second unit of work that meets its version
        statements.clear()
        event.listen(engine.sync_engine, "before_cursor_execute", seen)
        async with factory() as uow:
            club = await uow.clubs.for_chat("console", "club")
            assert club is not None
            ana = await uow.players.by_account(club.id, "console", "ana")
            assert ana is not None and ana.name == "Ana"
            assert not await uow.clubs.is_director(club.id, "console", "ana")
            assert (await uow.players.many([ana.id]))[ana.id].name == "Ana"
            assert await uow.players.accounts_of([ana.id]) == {ana.id: [("console", "ana")]}
            assert await uow.clubs.chats(club.id) == [("console", "club")]
            assert await uow.players.accounts(ana.id) == [("console", "ana")]
            assert [p.name for p in await uow.players.all(club.id)] == ["Ana"]
        event.remove(engine.sync_engine, "before_cursor_execute", seen)
    reads = [s for s in statements if s.startswith("SELECT")]
    assert len(reads) == 1, reads  # the club's row, with its version: nothing more


async def test_names_locked_for_a_new_player_are_read_under_the_lock(engine: AsyncEngine) -> None:
    """The look-alike check of a new name reads every member under the names lock: a
    roster cached before the lock could miss one added by another process meanwhile."""
    club_id = await _club_with_ana(engine)
    factory = unit_of_work_factory(engine)
    for _ in range(2):  # cached: loaded by the second unit of work that meets its version
        async with factory() as uow:
            await uow.clubs.for_chat("console", "club")
            await uow.players.all(club_id)
    statements: list[str] = []

    def seen(_conn: object, _cursor: object, statement: str, *_args: object) -> None:
        statements.append(statement)

    event.listen(engine.sync_engine, "before_cursor_execute", seen)
    try:
        async with factory() as uow:
            await uow.clubs.for_chat("console", "club")
            await uow.players.lock_names(club_id)
            assert [p.name for p in await uow.players.all(club_id)] == ["Ana"]
            await uow.rollback()
    finally:
        event.remove(engine.sync_engine, "before_cursor_execute", seen)
    assert [s for s in statements if "FROM players" in s], statements


async def test_every_change_is_seen_at_once(engine: AsyncEngine, database_url: str) -> None:
    club_id = await _club_with_ana(engine)
    factory = unit_of_work_factory(engine)
    other_process = unit_of_work_factory(other := make_engine(database_url))

    async def ana_here() -> tuple[str, bool]:
        async with factory() as uow:
            club = await uow.clubs.for_chat("console", "club")
            assert club is not None
            ana = await uow.players.by_account(club.id, "console", "ana")
            assert ana is not None
            return ana.name, await uow.clubs.is_director(club.id, "console", "ana")

    try:
        assert await ana_here() == ("Ana", False)
        async with factory() as uow:  # changed, then rolled back: never seen
            club = await uow.clubs.for_chat("console", "club")
            assert club is not None
            ana = await uow.players.by_account(club.id, "console", "ana")
            assert ana is not None
            ana.name = "Not Ana"  # a caller's copy: the cache keeps its own
            await uow.players.save(ana)
            await uow.rollback()
        assert await ana_here() == ("Ana", False)
        async with other_process() as uow:
            club = await uow.clubs.get(club_id)
            ana = await uow.players.by_account(club.id, "console", "ana")
            assert ana is not None
            ana.name = "Ana P."
            await uow.players.save(ana)
            await uow.clubs.add_director(club_id, "console", "ana")
            await uow.commit()
        assert await ana_here() == ("Ana P.", True)
        async with other_process() as uow:
            assert await uow.clubs.remove_director(club_id, "console", "ana")
            await uow.commit()
        assert await ana_here() == ("Ana P.", False)
    finally:
        await other.dispose()


async def test_a_chat_linked_confirmed_or_moved_is_seen_at_once(
    engine: AsyncEngine, database_url: str
) -> None:
    club_id = await _club_with_ana(engine)
    factory = unit_of_work_factory(engine)
    other_process = unit_of_work_factory(other := make_engine(database_url))

    async def chats(of: int) -> list[tuple[str, str]]:
        async with factory() as uow:
            await uow.clubs.get(of)  # its version, as a command reads it first
            return await uow.clubs.chats(of)

    try:
        async with other_process() as uow:
            rival = await uow.clubs.add("Rival", "UTC", "en", NOW)
            await uow.commit()
        for _ in range(2):  # cached from the second meeting of each version
            assert await chats(club_id) == [("console", "club")]
            assert await chats(rival.id) == []
        async with other_process() as uow:
            await uow.clubs.link_chat(club_id, "telegram", "-100", pending=True)
            await uow.commit()
        assert await chats(club_id) == [("console", "club")]  # not confirmed yet
        async with other_process() as uow:
            ((link_id, _, _),) = await uow.clubs.pending_chats(club_id)
            assert await uow.clubs.confirm_chat(club_id, link_id) == ("telegram", "-100")
            await uow.commit()
        for _ in range(2):
            assert await chats(club_id) == [("console", "club"), ("telegram", "-100")]
        async with other_process() as uow:  # the chat now belongs to the rival club
            await uow.clubs.link_chat(rival.id, "telegram", "-100")
            await uow.commit()
        assert await chats(club_id) == [("console", "club")]
        assert await chats(rival.id) == [("telegram", "-100")]
        async with other_process() as uow:  # the group became a supergroup
            assert await uow.clubs.move_chat("telegram", "-100", "-1009") == rival.id
            await uow.commit()
        assert await chats(rival.id) == [("telegram", "-1009")]
    finally:
        await other.dispose()


async def test_a_change_after_a_rollback_in_the_same_unit_of_work_is_seen(
    engine: AsyncEngine,
) -> None:
    """The version is bumped once a transaction; a rollback undoes that bump too."""
    club_id = await _club_with_ana(engine)
    factory = unit_of_work_factory(engine)

    async def ana() -> str:
        async with factory() as uow:
            await uow.clubs.get(club_id)
            return (await uow.players.many([1]))[1].name

    assert await ana() == await ana() == "Ana"  # cached from the second
    async with unit_of_work_factory(engine)() as uow:
        player = await uow.players.get(1)
        player.name = "Bea"
        await uow.players.save(player)
        await uow.rollback()
        player.name = "Ana Cai"
        await uow.players.save(player)
        await uow.commit()
    assert await ana() == "Ana Cai"


async def test_a_roster_read_whole_gives_every_field_as_stored(engine: AsyncEngine) -> None:
    """PostgreSQL reads a roster in one statement, its rows as JSON: every field of every
    player, every account in order, the directors and the chats come back as the
    repositories' own look-ups give them (SQLite reads them one table at a time)."""
    created = datetime(2026, 1, 31, 20, 0, 1, 123456, tzinfo=UTC)
    async with unit_of_work_factory(engine)() as uow:
        club = await uow.clubs.add("Club", "UTC", "en", NOW)
        await uow.clubs.link_chat(club.id, "console", "club")
        await uow.clubs.link_chat(club.id, "telegram", "-100")
        ana = await uow.players.add(club.id, "Ana Pérez", created, born=date(1950, 3, 2))
        bob = await uow.players.add(club.id, "bob", NOW, member=False)
        bob.novice, bob.language = True, "pl"
        await uow.players.save(bob)
        for platform, external in (("console", "ana"), ("telegram", "7"), ("discord", "9")):
            await uow.players.add_account(ana.id, platform, external)
        await uow.clubs.add_director(club.id, "telegram", "42")
        await uow.commit()
    factory = unit_of_work_factory(engine)
    ids = [ana.id, bob.id]
    stored = {}
    async with factory() as uow:  # no roster cached: straight from the tables
        stored = {i: await uow.players.get(i) for i in ids}
    for _ in range(2):  # cached by the second unit of work at the latest, on any database
        async with factory() as uow:
            assert await uow.clubs.for_chat("console", "club") is not None
            assert await uow.players.many(ids) == stored
            found = await uow.players.by_account(club.id, "telegram", "7")
            assert found == stored[ana.id]
            assert await uow.players.accounts_of(ids) == {
                ana.id: [("console", "ana"), ("telegram", "7"), ("discord", "9")],
                bob.id: [],
            }
            assert await uow.clubs.is_director(club.id, "telegram", "42")
            assert not await uow.clubs.is_director(club.id, "console", "ana")
            assert await uow.clubs.chats(club.id) == [("console", "club"), ("telegram", "-100")]
    assert stored[ana.id].created_at == created and stored[ana.id].born == date(1950, 3, 2)
    assert (stored[bob.id].novice, stored[bob.id].language, stored[bob.id].member) == (
        True,
        "pl",
        False,
    )
