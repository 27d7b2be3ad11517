"""The same players numbered apart by two databases play the same tournament: a
PostgreSQL sequence skips a number a refused command took, SQLite gives it again; the
order of the ids is the same, and only the order may matter: the draw and its
fingerprint (NAV-I), and every lot (HGV-7.2.3)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from tournament import attendance, progress, roster
from tournament.preset import load_preset
from tournament.simulation import new_tournament, play_out
from tournament.stages import all_standings
from tournament.state import TournamentState

START = datetime(2026, 12, 13, 17, 0, tzinfo=UTC)


def numbered(preset: str, ids: list[int], seed: int) -> TournamentState:
    """Return `new_tournament`'s tournament with the players numbered `ids` instead."""
    state = new_tournament(load_preset(preset), 0, START, seed=seed)
    for index, player in enumerate(ids, 1):
        born = date(1940 + index % 60, 1 + index % 12, 1 + index % 28)
        attendance.register(state, player, START - timedelta(days=6), by_director=True, born=born)
        attendance.confirm(state, player, START - timedelta(days=2))
        attendance.check_in(state, player, START - timedelta(minutes=30))
    return state


def gapped(count: int) -> list[int]:
    """Return `count` increasing ids with gaps, as a sequence leaves them."""
    return [3 + index * 2 + index // 3 for index in range(count)]


@pytest.mark.parametrize("preset", ["navodari-table", "hgv-backgammon", "warcaby-100"])
@pytest.mark.parametrize("seed", [1, 4, 17])
def test_a_tournament_does_not_depend_on_how_players_are_numbered_HGV_7_2_3_NAV_I(
    preset: str, seed: int
) -> None:
    count = 11
    one = numbered(preset, list(range(1, count + 1)), seed)
    other_ids = gapped(count)
    other = numbered(preset, other_ids, seed)
    as_one = dict(zip(other_ids, range(1, count + 1), strict=True))
    progress.draw(one, tuple(sorted(one.entries)), START)
    progress.draw(other, tuple(sorted(other.entries)), START)
    assert one.draw is not None and other.draw is not None
    assert other.draw.fingerprint == one.draw.fingerprint
    # Before any result every table is ordered by lot alone.
    mine_all, theirs_all = all_standings(one), all_standings(other)
    for name, mine in mine_all.items():
        theirs = theirs_all[name]
        assert [as_one[p] for p in theirs.order] == list(mine.order)
    play_out(one, seed=seed)
    play_out(other, seed=seed)
    assert [(as_one[p.player], p.place) for p in other.placements] == [
        (p.player, p.place) for p in one.placements
    ]


def test_a_walk_in_with_a_lower_id_does_not_move_a_lot_HGV_7_2_3() -> None:
    """An old member (a low id) walks in after the draw and is never placed (no new
    draw): the places the lots draw by are the drawn players', so every table stays."""
    state = numbered("hgv-backgammon", [10, 11, 12, 13, 14, 15, 16, 17], seed=3)
    progress.draw(state, tuple(sorted(state.entries)), START)
    before = {name: table.order for name, table in all_standings(state).items()}
    roster.walk_in(state, 2, START, born=date(1950, 1, 1))
    state.memo.clear()  # as a state loaded again would be
    after = {name: table.order for name, table in all_standings(state).items()}
    assert after == before
