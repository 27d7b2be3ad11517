"""Tournament persistence: whole states round-trip, and a save writes only what changed."""

from __future__ import annotations

import re
from dataclasses import fields
from datetime import UTC, timedelta, timezone
from decimal import Decimal
from typing import Any

import pytest
from sqlalchemy import event, func, insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from storage import StaleState
from storage import tables as t
from storage.repositories import codec
from tests.storage.conftest import (
    START,
    UowFactory,
    as_dict,
    club_with_players,
    datetimes_in,
    finished,
    forfeit_night,
    load,
    midway,
    open_matches,
    registration,
    saved_elsewhere,
    store,
)
from tournament import overrides
from tournament.model import MatchStatus, TournamentStatus
from tournament.preset import load_preset
from tournament.scoring import GameRecord
from tournament.simulation import play_out
from tournament.state import Penalty, Report, Span, TournamentState


@pytest.mark.parametrize(
    "build",
    [
        pytest.param(lambda: registration(12), id="registration"),
        pytest.param(lambda: midway(12), id="midway"),
        pytest.param(forfeit_night, id="night-forfeit"),
        pytest.param(lambda: finished(12), id="finished"),
        pytest.param(lambda: finished(16, "warcaby-100"), id="finished-draughts"),
        pytest.param(lambda: finished(16, "navodari-table"), id="finished-navodari"),
    ],
)
async def test_a_whole_state_comes_back_field_for_field(
    uow_factory: UowFactory, build: Any
) -> None:
    state: TournamentState = build()
    club_id = await club_with_players(uow_factory, len(state.entries))
    tournament_id = await store(uow_factory, club_id, state)
    loaded = await load(uow_factory, tournament_id)
    assert as_dict(loaded) == as_dict(state)
    assert list(loaded.entries) == list(state.entries)
    assert list(loaded.matches) == list(state.matches)
    assert list(loaded.done) == list(state.done)
    times = datetimes_in(as_dict(loaded))
    assert times and all(moment.tzinfo is UTC for moment in times)


async def test_changes_come_back_after_a_second_save(uow_factory: UowFactory) -> None:
    state = midway(12)
    club_id = await club_with_players(uow_factory, 12)
    tournament_id = await store(uow_factory, club_id, state)
    async with uow_factory() as uow:
        loaded = await uow.tournaments.get(tournament_id, for_update=True)
        number = open_matches(loaded)[0]
        loaded.matches[number].white_score = 2
        loaded.matches[number].pauses.append(Span(START, None))
        loaded.entries[3].presence[-1].end = START + timedelta(hours=1)
        loaded.entries[4].presence.append(Span(START + timedelta(hours=2)))
        # Another zone: it must come back as the same instant, in UTC.
        caracas = timezone(timedelta(hours=-4))
        loaded.entries[5].confirmed_at = START.astimezone(caracas)
        loaded.penalties["late:99:1:1"] = Penalty("late:99:1:1", number, 1, 1, START)
        loaded.done["late:99:1"] = START + timedelta(minutes=10)
        loaded.status = TournamentStatus.KNOCKOUT
        other = loaded.matches[open_matches(loaded)[1]]
        assert other.white is not None
        other.report = Report(other.white, 5, 5, START, 2, ((2, 2), (1, 3)), "black")
        other.games = (GameRecord("white", "gammon", 4), GameRecord("black", "single"))
        other.tiebreaks, other.lot_winner = ((4, 4),), "white"
        other.forfeited_by = frozenset({3, 1})
        await uow.tournaments.save(loaded)
        await uow.commit()
    reloaded = await load(uow_factory, tournament_id)
    assert as_dict(reloaded) == as_dict(loaded)
    assert reloaded.matches[number].white_score == 2
    assert reloaded.entries[5].confirmed_at == START
    assert reloaded.entries[5].confirmed_at.tzinfo is UTC
    assert reloaded.done["late:99:1"] == START + timedelta(minutes=10)
    assert "late:99:1:1" in reloaded.penalties
    assert reloaded.matches[other.number].report == other.report


async def test_the_state_played_on_after_loading_is_saved_whole(uow_factory: UowFactory) -> None:
    state = registration(12)
    club_id = await club_with_players(uow_factory, 12)
    tournament_id = await store(uow_factory, club_id, state)
    async with uow_factory() as uow:
        loaded = await uow.tournaments.get(tournament_id, for_update=True)
        play_out(loaded, seed=3)
        await uow.tournaments.save(loaded)
        await uow.commit()
    reloaded = await load(uow_factory, tournament_id)
    assert reloaded.status is TournamentStatus.FINISHED
    assert as_dict(reloaded) == as_dict(loaded)


_WRITES = re.compile(r'(?<!FOR )\b(INSERT INTO|UPDATE|DELETE FROM) "?(\w+)')


class Statements:
    """Record the writing statements an engine runs: (verb, table, row count)."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.seen: list[tuple[str, str, int]] = []
        self._engine = engine
        event.listen(engine.sync_engine, "before_cursor_execute", self._record)

    def _record(
        self, _conn: Any, _cursor: Any, statement: str, params: Any, _ctx: Any, many: bool
    ) -> None:
        if statement.split()[0].upper() not in ("INSERT", "UPDATE", "DELETE", "WITH"):
            return
        # PostgreSQL's WITH writes several tables in one statement (storage/tournaments).
        for verb, table in _WRITES.findall(statement):
            self.seen.append((verb.split()[0], table, len(params) if many else 1))

    def close(self) -> None:
        event.remove(self._engine.sync_engine, "before_cursor_execute", self._record)


async def test_a_save_writes_only_the_rows_that_changed(
    engine: AsyncEngine, uow_factory: UowFactory
) -> None:
    state = midway(12)
    club_id = await club_with_players(uow_factory, 12)
    tournament_id = await store(uow_factory, club_id, state)
    statements = Statements(engine)
    try:
        async with uow_factory() as uow:
            loaded = await uow.tournaments.get(tournament_id, for_update=True)
            await uow.tournaments.save(loaded)
            assert statements.seen == []  # nothing changed, nothing written
            number = open_matches(loaded)[0]
            loaded.matches[number].black_score = 1
            await uow.tournaments.save(loaded)
            # On PostgreSQL a one-row save waits for the next statement (it goes in with
            # the command's outbox insert): asking for the connection sends it.
            await uow.transaction.connection()
            assert statements.seen == [("UPDATE", "tournaments", 1), ("UPDATE", "matches", 1)]
            statements.seen.clear()
            loaded.done["late:50:1"] = START
            loaded.entries[1].presence[-1].end = START
            await uow.tournaments.save(loaded)
            assert sorted(statements.seen) == [
                ("INSERT", "done_actions", 1),
                ("UPDATE", "entries", 1),
                ("UPDATE", "tournaments", 1),
            ]
            await uow.commit()
    finally:
        statements.close()
    async with uow_factory() as uow:
        conn = await uow.transaction.connection()
        version = (
            await conn.execute(
                select(t.tournaments.c.version).where(t.tournaments.c.id == tournament_id)
            )
        ).scalar_one()
    assert version == 3  # added, then two saves that changed something


async def test_a_report_changed_in_place_is_saved(
    engine: AsyncEngine, uow_factory: UowFactory
) -> None:
    """A save reuses the rows of unchanged matches: one whose report was answered in
    place (the same Report object, countered) must not pass for unchanged."""
    state = midway(12)
    club_id = await club_with_players(uow_factory, 12)
    tournament_id = await store(uow_factory, club_id, state)
    statements = Statements(engine)
    try:
        async with uow_factory() as uow:
            loaded = await uow.tournaments.get(tournament_id, for_update=True)
            match = loaded.matches[open_matches(loaded)[0]]
            assert match.white is not None and match.black is not None
            match.report = Report(match.white, 3, 1, START, 1)
            await uow.tournaments.save(loaded)
            statements.seen.clear()
            match.report.counter = Report(match.black, 3, 2, START, 2)
            await uow.tournaments.save(loaded)
            assert statements.seen == [("UPDATE", "tournaments", 1), ("UPDATE", "matches", 1)]
            statements.seen.clear()
            match.pauses.append(Span(START))
            await uow.tournaments.save(loaded)
            statements.seen.clear()
            match.pauses[-1].end = START + timedelta(minutes=5)
            await uow.tournaments.save(loaded)
            assert statements.seen == [("UPDATE", "tournaments", 1), ("UPDATE", "matches", 1)]
            await uow.commit()
    finally:
        statements.close()
    reloaded = await load(uow_factory, tournament_id)
    assert reloaded.matches[match.number].report == match.report
    assert reloaded.matches[match.number].pauses == match.pauses


def test_every_field_a_save_reads_by_reference_cannot_change_in_place() -> None:
    """A save compares a match's or an entry's fields to what it stored; a field changed
    in place (a list, a mutable object) must be read by value (codec._IN_PLACE), or its
    change would pass for none. Hashable means it cannot change in place."""
    state = finished(12)
    for match in state.matches.values():
        for name in {f.name for f in fields(match)} - codec._IN_PLACE:
            hash(getattr(match, name))
    for entry in state.entries.values():
        for name in {f.name for f in fields(entry)} - codec._IN_PLACE:
            hash(getattr(entry, name))


async def test_the_same_done_key_twice_is_refused_by_the_database(
    uow_factory: UowFactory,
) -> None:
    """ARCHITECTURE idea 1: an automatic effect is recorded once, below the code."""
    state = midway(12)
    club_id = await club_with_players(uow_factory, 12)
    tournament_id = await store(uow_factory, club_id, state)
    key = next(iter(state.done))
    async with uow_factory() as uow:
        conn = await uow.transaction.connection()
        with pytest.raises(IntegrityError):
            await conn.execute(
                insert(t.done_actions).values(tournament_id=tournament_id, key=key, due=START)
            )


async def test_a_save_over_a_newer_version_fails_instead_of_losing_it(
    uow_factory: UowFactory,
) -> None:
    state = midway(12)
    club_id = await club_with_players(uow_factory, 12)
    tournament_id = await store(uow_factory, club_id, state)
    first, second = open_matches(state)[:2]
    async with uow_factory() as stale_uow:
        stale = await stale_uow.tournaments.get(tournament_id)
        await stale_uow.commit()  # ends the transaction, keeps what it loaded
        await saved_elsewhere(uow_factory, tournament_id, first)
        stale.matches[second].white_score = 1
        with pytest.raises(StaleState):
            # A one-row save is sent with the next statement, or by the commit at last.
            await stale_uow.tournaments.save(stale)
            await stale_uow.commit()
    stored = await load(uow_factory, tournament_id)
    assert stored.matches[first].white_score == 1
    assert stored.matches[second].white_score == state.matches[second].white_score


async def current_name(uow_factory: UowFactory, club_id: int) -> str | None:
    async with uow_factory() as uow:
        current = await uow.tournaments.current(club_id)
    return None if current is None else current.name


async def test_current_prefers_play_then_registration_then_the_latest_finished(
    uow_factory: UowFactory,
) -> None:
    club_id = await club_with_players(uow_factory, 12)
    assert await current_name(uow_factory, club_id) is None
    old = finished(12)
    old.name, old.start = "Old Cup", START - timedelta(days=60)
    await store(uow_factory, club_id, old)
    assert await current_name(uow_factory, club_id) == "Old Cup"
    upcoming = registration(12)
    upcoming.name, upcoming.start = "Next Cup", START + timedelta(days=7)
    await store(uow_factory, club_id, upcoming)
    assert await current_name(uow_factory, club_id) == "Next Cup"
    playing = midway(12)
    playing.name = "Tonight"
    await store(uow_factory, club_id, playing)
    async with uow_factory() as uow:
        current = await uow.tournaments.current(club_id, for_update=True)
        assert current is not None and current.name == "Tonight"
        assert current.status is TournamentStatus.GROUPS
        listed = await uow.tournaments.list(club_id)
        assert [(t.name, t.status) for t in listed] == [
            ("Old Cup", "finished"),
            ("Tonight", "groups"),
            ("Next Cup", "registration"),
        ]
        assert await uow.tournaments.unfinished() == [
            (upcoming.id, club_id),
            (playing.id, club_id),
        ]
        found = await uow.tournaments.by_name(club_id, "  tonIGHT ")
        assert found is not None and found.id == playing.id
        assert await uow.tournaments.by_name(club_id, "Never") is None
        assert await uow.tournaments.club_of(playing.id) == club_id


async def test_records_come_from_the_placements_of_finished_tournaments(
    uow_factory: UowFactory,
) -> None:
    club_id = await club_with_players(uow_factory, 12)
    state = finished(12)
    await store(uow_factory, club_id, state)
    await store(uow_factory, club_id, registration(12))
    async with uow_factory() as uow:
        records = await uow.tournaments.records(club_id)
    assert len(records) == 1
    record = records[0]
    by_place = {p.place: p.player for p in state.placements}
    assert record.tournament == state.name
    assert record.official is True
    assert record.champion == by_place[1]
    assert record.finalists == (by_place[1], by_place[2])
    assert record.points == {p.player: Decimal(p.points) for p in state.placements}
    assert record.novices == frozenset({2})


async def test_overrides_are_stored_and_build_the_preset_again(uow_factory: UowFactory) -> None:
    club_id = await club_with_players(uow_factory, 12)
    state = registration(12)
    state.preset = load_preset("hgv-backgammon", {"group_size": "4"})
    async with uow_factory() as uow:
        with pytest.raises(ValueError):
            await uow.tournaments.add(club_id, state, {})  # the preset does not match
        await uow.tournaments.add(club_id, state, {"group_size": "4"})
        await uow.commit()
    async with uow_factory() as uow:
        assert await uow.tournaments.overrides(state.id) == {"group_size": "4"}
        loaded = await uow.tournaments.get(state.id)
        assert loaded.preset.groups.size == 4
        # A director changes a rule mid-way: the preset is saved as overrides.
        loaded.preset = load_preset("hgv-backgammon", {"group_size": "4", "final_length": "9"})
        await uow.tournaments.save(loaded)
        await uow.commit()
    reloaded = await load(uow_factory, state.id)
    assert reloaded.preset.knockout.final_length == 9
    assert reloaded.preset.groups.size == 4


async def test_a_state_loaded_elsewhere_is_compared_with_the_database(
    uow_factory: UowFactory,
) -> None:
    club_id = await club_with_players(uow_factory, 12)
    state = midway(12)
    tournament_id = await store(uow_factory, club_id, state)
    loaded = await load(uow_factory, tournament_id)
    overrides.cancel_penalties(loaded, next(iter(loaded.penalties.values())).match)
    async with uow_factory() as uow:
        await uow.tournaments.save(loaded)
        stats = uow.tournaments.last_save
        await uow.commit()
    assert stats is not None
    assert (stats.inserted, stats.updated, stats.deleted) == (
        {},
        {"matches": 1, "penalties": 2},
        {},
    )
    reloaded = await load(uow_factory, tournament_id)
    assert all(p.cancelled for p in reloaded.penalties.values())
    assert reloaded.matches[8].status is MatchStatus.SCHEDULED


async def test_children_go_with_their_tournament(uow_factory: UowFactory) -> None:
    club_id = await club_with_players(uow_factory, 12)
    tournament_id = await store(uow_factory, club_id, midway(12))
    async with uow_factory() as uow:
        conn = await uow.transaction.connection()
        await conn.execute(t.tournaments.delete().where(t.tournaments.c.id == tournament_id))
        for table in (t.entries, t.matches, t.penalties, t.done_actions):
            count = (await conn.execute(select(func.count()).select_from(table))).scalar_one()
            assert count == 0


async def test_a_transaction_lists_its_club_once_unless_it_must_lock_or_saved_since(
    engine: AsyncEngine, uow_factory: UowFactory
) -> None:
    club_id = await club_with_players(uow_factory, 12)
    await store(uow_factory, club_id, registration(12))
    listings: list[str] = []

    def seen(_conn: object, _cursor: object, statement: str, *_args: object) -> None:
        if statement.startswith("SELECT tournaments.id, tournaments.name"):
            listings.append(statement)

    event.listen(engine.sync_engine, "before_cursor_execute", seen)
    try:
        async with uow_factory() as uow:
            first = await uow.tournaments.list(club_id, for_update=True)
            assert await uow.tournaments.list(club_id) == first  # the locked one serves
            assert await uow.tournaments.list(club_id, for_update=True) == first
            assert len(listings) == 1
            listings.clear()
        async with uow_factory() as uow:
            await uow.tournaments.list(club_id)
            await uow.tournaments.list(club_id, for_update=True)  # a plain one cannot lock
            assert len(listings) == 2
            state = await uow.tournaments.get(first[0].id, for_update=True)
            state.status = TournamentStatus.CANCELLED
            await uow.tournaments.save(state)
            (after,) = await uow.tournaments.list(club_id, for_update=True)
            assert after.status is TournamentStatus.CANCELLED  # read again after a save
            assert len(listings) == 3
    finally:
        event.remove(engine.sync_engine, "before_cursor_execute", seen)
