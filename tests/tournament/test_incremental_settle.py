"""Settling with what the state remembers equals deriving everything afresh (issue 17).

`settle` keeps a match index and remembered standings and extra-game checks with the
state between calls, so that one result costs what it can change. A state loaded from
storage remembers nothing. Whatever happened before, one more fact must lead to the same
events and the same state either way (NAV-TIE extra games, knockout, HGV-4.8 corrections).
"""

from __future__ import annotations

import copy
import random
from datetime import UTC, datetime, timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournament import corrections, progress, reports
from tournament.events import Event
from tournament.model import MatchStatus, Refused, Stage
from tournament.preset import load_preset
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
    """Apply one result or, now and then, one correction; None when nothing is left."""
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


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    preset=st.sampled_from(["hgv-backgammon", "navodari-table", "warcaby-100"]),
    players=st.integers(3, 14),
    seed=st.integers(0, 10**6),
)
def test_incremental_settle_equals_a_full_re_derivation_NAV_TIE_HGV_4_8(
    preset: str, players: int, seed: int
) -> None:
    """After every single fact, the state that kept its index and memo settles exactly
    like a copy of it that remembers nothing."""
    state = new_tournament(load_preset(preset), players, START, seed=seed)
    progress.draw(state, tuple(sorted(state.entries)), START)
    at = START
    for step in range(400):
        at += timedelta(minutes=1)
        fresh = forgetful(state)
        kept_events = one_fact(state, random.Random(f"{seed}:{step}"), at)
        fresh_events = one_fact(fresh, random.Random(f"{seed}:{step}"), at)
        assert kept_events == fresh_events, step
        assert state == fresh, step
        assert {g: t.order for g, t in progress.all_standings(state).items()} == {
            g: t.order for g, t in progress.all_standings(fresh).items()
        }
        if kept_events is None:
            break
