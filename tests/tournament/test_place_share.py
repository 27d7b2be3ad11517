"""Players knocked out at the same stage share a place range (PLACE-SHARE)."""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal

from tournament import progress
from tournament.model import Stage
from tournament.placements import shared_ranges
from tournament.preset import load_preset
from tournament.ranking import place_points
from tournament.simulation import new_tournament, play_out
from tournament.state import TournamentState

START = datetime(2026, 3, 6, 20, 0, tzinfo=UTC)


def played(preset: str, players: int, seed: int) -> TournamentState:
    state = new_tournament(load_preset(preset), players, START, seed=seed)
    play_out(state, seed=seed)
    return state


def wins(state: TournamentState, player: int) -> int:
    """Matches won (HGV-7.5); an extra game (NAV-TIE) is a game, not a match."""
    return sum(
        m.winner == player
        for m in state.matches.values()
        if m.is_final and m.stage is not Stage.TIEBREAK
    )


def test_the_five_who_did_not_qualify_share_5th_to_9th_at_5th_place_points_PLACE_SHARE() -> None:
    """Nine players, four qualifiers (NAV-QUAL, third-place match NAV-IV): 1, 2, 3, 4,
    then five players share 5th-9th, each with the points of 5th."""
    state = played("navodari-table", 9, seed=2)
    places = [p.place for p in state.placements]
    assert places == [1, 2, 3, 4, 5, 5, 5, 5, 5]
    assert shared_ranges(places) == {1: (1, 1), 2: (2, 2), 3: (3, 3), 4: (4, 4), 5: (5, 9)}
    rules = state.preset.ranking
    for placement in state.placements[4:]:
        expected = (
            place_points(rules, 5)
            + Decimal(str(rules.participation))
            + Decimal(str(rules.per_match_won)) * wins(state, placement.player)
        )
        assert Decimal(placement.points) == expected


def test_within_a_range_players_are_in_group_stage_order_PLACE_SHARE() -> None:
    state = played("navodari-table", 9, seed=2)
    tables = [progress.standings_of(state, group) for group in state.groups]
    order = [t.rows[i].player for i in range(5) for t in tables if i < len(t.rows)]
    shared = [p.player for p in state.placements if p.place == 5]
    assert shared == [player for player in order if player in shared]


def test_quarter_final_losers_share_5th_to_8th_play_in_losers_9th_to_12th_PLACE_SHARE() -> None:
    """Twelve players in groups of three all qualify (HGV-7.1): four play-ins, then a
    bracket of eight; the non-qualifiers' range starts after everyone placed."""
    state = played("hgv-backgammon", 12, seed=5)
    ranges = shared_ranges([p.place for p in state.placements])
    assert ranges == {1: (1, 1), 2: (2, 2), 3: (3, 4), 5: (5, 8), 9: (9, 12)}


def test_non_qualifiers_start_after_everyone_the_knockout_placed_PLACE_SHARE() -> None:
    """Sixteen players in groups of four, two through: eight share 9th-16th, not "6th"."""
    preset = load_preset("hgv-backgammon", {"group_size": 4, "qualifiers": 2})
    state = new_tournament(preset, 16, START, seed=3)
    play_out(state, seed=3)
    ranges = shared_ranges([p.place for p in state.placements])
    assert ranges == {1: (1, 1), 2: (2, 2), 3: (3, 4), 5: (5, 8), 9: (9, 16)}
