"""Settling with what the state remembers equals deriving everything afresh (issue 17).

`settle` keeps a match index and remembered standings and extra-game checks with the
state between calls, so that one result costs what it can change. A state loaded from
storage remembers nothing. Whatever happened before, one more fact must lead to the same
events and the same state either way (NAV-TIE extra games, knockout, HGV-4.8 corrections,
HGV-2.3.5 departures and their forfeits).
"""

from __future__ import annotations

import copy
import random
from datetime import UTC, datetime, timedelta
from unittest.mock import patch

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournament import attendance, corrections, progress, reports
from tournament.events import Event
from tournament.model import EntryStatus, MatchStatus, Refused, Stage
from tournament.preset import load_preset
from tournament.scoring import FinalScore
from tournament.simulation import new_tournament, random_score
from tournament.state import TournamentState

START = datetime(2026, 3, 6, 20, 0, tzinfo=UTC)


def forgetful(state: TournamentState) -> TournamentState:
    """Return a copy of `state` that remembers nothing, as if loaded from storage."""
    fresh = copy.deepcopy(state)
    fresh.memo.clear()
    fresh.index = None
    return fresh


def one_fact(state: TournamentState, rng: random.Random, at: datetime) -> list[Event] | None:
    """Apply one result or, now and then, one correction or departure; None when nothing
    is left."""
    if rng.random() < 0.04:
        return departure(state, rng, at)
    played = sorted(
        (
            m
            for m in state.matches.values()
            if m.is_ready
            and m.is_final
            and not (m.stage is Stage.TIEBREAK and m.status is MatchStatus.VOID)
        ),
        key=lambda m: m.number,
    )
    if played and rng.random() < 0.25:
        extra = [m for m in played if m.stage is Stage.TIEBREAK]
        # Extra games are few: correct them more often than their share (NAV-TIE).
        match = rng.choice(extra if extra and rng.random() < 0.5 else played)
        change: corrections.Change = random_score(state.preset, match, rng)
        if match.stage is Stage.GROUP and rng.random() < 0.3:
            change = "reopen" if rng.random() < 0.5 else "void"
        try:
            return corrections.correct(state, match.number, change, at, confirmed=True)
        except Refused:
            return []
    ready = sorted(
        (m for m in state.matches.values() if m.is_ready and not m.is_final),
        key=lambda m: m.number,
    )
    if not ready:
        return None
    match = rng.choice(ready)
    return reports.record_result(
        state, match, random_score(state.preset, match, rng), at, how="director"
    )


def departure(state: TournamentState, rng: random.Random, at: datetime) -> list[Event]:
    """Let a player leave (HGV-2.3.5: their open matches are forfeited, a knockout one
    goes to their last victim, HGV-2.3.8), or bring one who left back."""
    gone = sorted(p for p, e in state.entries.items() if e.status is not EntryStatus.ACTIVE)
    here = sorted(p for p, e in state.entries.items() if e.status is EntryStatus.ACTIVE)
    if gone and (not here or rng.random() < 0.4):
        return attendance.reinstate(state, rng.choice(gone), at)
    return attendance.leave(state, rng.choice(here), at, reason="left") if here else []


def outcome(state: TournamentState, rng: random.Random, at: datetime) -> list[Event] | str | None:
    """Return what one fact led to: its events, or the refusal a settle raised.

    A departure may be refused (a finished tournament), and a fact acted on while a
    pairings conflict waits for the director may make a settle refuse (see
    test_finishable.py, whose director decides a waiting conflict first). Here only
    matters that remembering and re-deriving refuse alike.
    """
    try:
        return one_fact(state, rng, at)
    except Refused as refused:
        return f"refused: {refused}"


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    preset=st.sampled_from(["hgv-backgammon", "navodari-table", "warcaby-100"]),
    players=st.integers(3, 14),
    seed=st.integers(0, 10**6),
    whole=st.booleans(),
)
def test_incremental_settle_equals_a_full_re_derivation_NAV_TIE_HGV_4_8(
    preset: str, players: int, seed: int, whole: bool
) -> None:
    """After every single fact, the state that kept its index and memo settles exactly
    like a copy of it that remembers nothing; with the group stage compared group by
    group, and compared whole as a large one is."""
    with patch.object(progress, "_WHOLE_STAGE_FROM", 0 if whole else 10**9):
        play_and_compare(preset, players, seed)


def play_and_compare(preset: str, players: int, seed: int) -> None:
    state = new_tournament(load_preset(preset), players, START, seed=seed)
    progress.draw(state, tuple(sorted(state.entries)), START)
    at = START
    for step in range(400):
        at += timedelta(minutes=1)
        fresh = forgetful(state)
        kept_events = outcome(state, random.Random(f"{seed}:{step}"), at)
        fresh_events = outcome(fresh, random.Random(f"{seed}:{step}"), at)
        assert kept_events == fresh_events, step
        assert state == fresh, step
        if kept_events is None or isinstance(kept_events, str):
            break
        assert {g: t.order for g, t in progress.all_standings(state).items()} == {
            g: t.order for g, t in progress.all_standings(fresh).items()
        }


def test_a_runner_up_back_after_the_knockout_began_qualifies_again_HGV_2_3_5() -> None:
    """The qualifiers remembered with the knockout's bracket count only while every
    entry is as it was: a group's runner-up who left before the knockout (the third
    took their place) and is reinstated is its runner-up again, as a copy that
    remembers nothing finds."""
    state = new_tournament(load_preset("navodari-table"), 8, START, seed=1)
    progress.draw(state, tuple(sorted(state.entries)), START)
    at = START + timedelta(minutes=45)
    first = state.groups[0]

    def play(groups: set[str | None]) -> None:
        # The lower id wins: a group's order is its ids', without a tie.
        for match in sorted(state.matches.values(), key=lambda m: m.number):
            if match.group in groups and match.is_ready and not match.is_final:
                assert match.white is not None and match.black is not None
                white_wins = match.white < match.black
                score = FinalScore(5, 0) if white_wins else FinalScore(0, 5)
                reports.record_result(state, match, score, at, how="director")

    def seeded() -> set[int]:
        return {p for m in state.stage_matches(Stage.KNOCKOUT) for p in m.players}

    play({first.name})
    runner_up, third = sorted(first.players)[1:3]
    attendance.leave(state, runner_up, at, reason="left")
    play({g.name for g in state.groups[1:]})
    assert third in seeded() and runner_up not in seeded()
    progress.settle(state, at)  # remembers the qualifiers with the bracket they seeded
    fresh = forgetful(state)
    events = attendance.reinstate(state, runner_up, at)
    assert runner_up in seeded() and third not in seeded()
    assert events == attendance.reinstate(fresh, runner_up, at)
    assert state == fresh
