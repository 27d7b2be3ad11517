"""The simulated tournament (`play_out`) plays every wave a scan of all matches finds."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from tournament import progress, reports
from tournament.model import MatchStatus, TournamentStatus
from tournament.preset import load_preset
from tournament.simulation import new_tournament, play_out, random_score
from tournament.state import TournamentState

START = datetime(2026, 3, 6, 20, 0, tzinfo=UTC)


def scanned_play_out(state: TournamentState, *, seed: int) -> None:
    """Play as `play_out` did, finding each wave by a scan of every match."""
    rng = random.Random(seed)
    at = state.start
    if state.status is TournamentStatus.REGISTRATION:
        progress.draw(state, tuple(sorted(state.entries)), at)
    while state.status is not TournamentStatus.FINISHED:
        wave = [
            m
            for m in state.matches.values()
            if m.is_ready and not m.is_final and m.status is not MatchStatus.DISPUTED
        ]
        assert wave, f"stuck in {state.status}"
        at += timedelta(minutes=state.preset.groups.round_minutes)
        for match in wave:
            score = random_score(state.preset, match, rng)
            reports.record_result(state, match, score, at, how="director", settle=False)
        progress.settle(state, at)


@pytest.mark.parametrize("preset", ["navodari-table", "hgv-backgammon", "warcaby-100"])
@pytest.mark.parametrize("players", [2, 3, 5, 9, 13, 46])
def test_play_out_plays_the_waves_a_scan_of_every_match_finds(preset: str, players: int) -> None:
    for seed in range(3):
        expected = new_tournament(load_preset(preset), players, START, seed=seed)
        scanned_play_out(expected, seed=seed)
        state = new_tournament(load_preset(preset), players, START, seed=seed)
        play_out(state, seed=seed)
        # The same scores in the same order: the random scores follow one another.
        assert state == expected
        assert state.placements
