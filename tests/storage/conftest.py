"""Helpers for storage tests: a club with players, and tournaments at every stage."""

from __future__ import annotations

import random
from dataclasses import asdict
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from storage.unit_of_work import SqlUnitOfWorkFactory, unit_of_work_factory
from tests.tournament.nights import Night, at
from tournament import attendance, due, progress, reports
from tournament.model import MatchStatus
from tournament.preset import load_preset
from tournament.simulation import new_tournament, play_out, random_score
from tournament.state import Span, TournamentState

START = datetime(2026, 1, 31, 20, 0, tzinfo=UTC)
NOW = START - timedelta(days=30)

UowFactory = SqlUnitOfWorkFactory


@pytest.fixture
def uow_factory(engine: AsyncEngine) -> UowFactory:
    """Units of work without the state cache: these tests are about what the database
    keeps (test_state_cache.py covers the cache)."""
    return unit_of_work_factory(engine, cache=False)


async def club_with_players(uow_factory: UowFactory, players: int) -> int:
    """Store a club and `players` players; return the club id.

    The core's simulations number players 1..n, and a fresh database numbers them the
    same way, so simulated tournaments can be stored as they are.
    """
    async with uow_factory() as uow:
        club = await uow.clubs.add("Hermandad", "America/Caracas", "es", NOW)
        ids = [(await uow.players.add(club.id, f"Player {i}", NOW)).id for i in range(players)]
        await uow.commit()
    assert ids == list(range(1, players + 1))
    return club.id


def registration(players: int = 12, preset: str = "hgv-backgammon") -> TournamentState:
    """Return a tournament open for entries, everyone confirmed and checked in."""
    state = new_tournament(load_preset(preset), players, START, seed=1)
    entry = state.entries[2]
    entry.novice = True
    entry.seed = 4
    return state


def midway(players: int = 12) -> TournamentState:
    """Return a drawn tournament with results, a pending report, games, a pause, a
    late player's lateness points and the done keys of the effects applied."""
    state = registration(players)
    attendance.mark_away(state, players, START - timedelta(minutes=5))
    progress.draw(state, tuple(sorted(state.entries)), START - timedelta(minutes=15))
    rng = random.Random(7)
    late = [m for m in state.matches.values() if m.involves(players) and m.is_ready]
    others = [m for m in state.matches.values() if m.is_ready and not m.involves(players)]
    for match in others[:3]:
        reports.record_result(
            state, match, random_score(state.preset, match, rng), START, how="director"
        )
    pending = others[3]
    assert pending.white is not None
    reports.report_score(
        state,
        pending.number,
        pending.white,
        random_score(state.preset, pending, rng),
        START + timedelta(minutes=60),
    )
    played = others[4]
    assert played.white is not None
    reports.report_game(state, played.number, played.white, "gammon", 1, START)
    others[5].pauses.append(Span(START + timedelta(minutes=1), START + timedelta(minutes=3)))
    due.sweep(state, START + timedelta(minutes=65))
    assert state.penalties and state.done and late
    return state


def forfeit_night() -> TournamentState:
    """Return a two-player night (tests/tournament/nights.py) where the late player lost
    by forfeit: lateness points, a forfeit and every done key on the way."""
    night = Night("hgv-backgammon")
    night.enter("alice", check_in=at("19:30"))
    night.enter("bob")
    night.draw("alice", "bob", when=at("19:45"))
    due.sweep(night.state, at("20:35"))
    match = night.match("alice", "bob")
    assert match.status is MatchStatus.FORFEIT and match.forfeited_by
    return night.state


def finished(players: int = 12, preset: str = "hgv-backgammon") -> TournamentState:
    """Return a tournament played to the end with placements and ranking points."""
    state = registration(players, preset)
    play_out(state, seed=3)
    assert state.placements
    return state


def open_matches(state: TournamentState) -> list[int]:
    """Return the numbers of matches ready to be played and not final."""
    return sorted(
        m.number
        for m in state.matches.values()
        if m.is_ready and not m.is_final and m.status is MatchStatus.SCHEDULED
    )


def as_dict(state: TournamentState) -> dict[str, Any]:
    """Return every stored field of a state, recursively, for equality checks."""
    fields = asdict(state)
    fields.pop("memo")  # remembered derived values, never stored
    fields.pop("index")  # the matches by stage and group, rebuilt from them after a load
    return fields


def datetimes_in(value: object) -> list[datetime]:
    """Return every datetime nested in dicts, lists, tuples and sets."""
    if isinstance(value, datetime):
        return [value]
    if isinstance(value, dict):
        return [d for v in value.values() for d in datetimes_in(v)]
    if isinstance(value, list | tuple | set | frozenset):
        return [d for v in value for d in datetimes_in(v)]
    return []


async def store(uow_factory: UowFactory, club_id: int, state: TournamentState) -> int:
    """Add `state` to the club; return its id."""
    async with uow_factory() as uow:
        await uow.tournaments.add(club_id, state, {})
        await uow.commit()
    return state.id


async def load(uow_factory: UowFactory, tournament_id: int) -> TournamentState:
    async with uow_factory() as uow:
        return await uow.tournaments.get(tournament_id)


async def saved_elsewhere(uow_factory: UowFactory, tournament_id: int, number: int) -> None:
    """Give match `number` a white score of 1 in a unit of work of its own (committed):
    a state loaded before is then stale."""
    async with uow_factory() as uow:
        fresh = await uow.tournaments.get(tournament_id, for_update=True)
        fresh.matches[number].white_score = 1
        await uow.tournaments.save(fresh)
        await uow.commit()


def entry(club_id: int, action: str, n: int = 0) -> dict[str, object]:
    return {
        "club_id": club_id,
        "tournament_id": None,
        "actor": "ana",
        "action": action,
        "detail": {"n": n},
        "at": NOW + timedelta(seconds=n),
    }


def message(club_id: int, text: str, coalesce: str | None = None) -> dict[str, object]:
    return {
        "club_id": club_id,
        "platform": "telegram",
        "chat": "chat-1",
        "payload": {"text": text},
        "created_at": NOW,
        "coalesce": coalesce,
    }
