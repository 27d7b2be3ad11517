"""The group round robin: each pair once, published times (HGV-2.3.4), colours (HGV-7.4.8)."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime, timedelta, timezone
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.preset import load_preset
from tournament.round_robin import Pairing, round_robin

HGV = load_preset("hgv-backgammon").groups
CARACAS = timezone(timedelta(hours=-4))
START = datetime(2014, 1, 18, 15, 0, tzinfo=CARACAS)


def _at(round_number: int) -> datetime:
    """Return the published start of a round: the tournament start plus whole rounds."""
    return START + timedelta(minutes=HGV.round_minutes * (round_number - 1))


def _table(pairings: tuple[Pairing, ...]) -> list[tuple[int, int, int]]:
    return [(pairing.round, pairing.white, pairing.black) for pairing in pairings]


def test_group_of_3_HGV_2_3_4_HGV_7_4_8() -> None:
    """Three rounds, one player sits out each, everyone white once and black once."""
    pairings = round_robin((11, 22, 33), START, HGV.round_minutes)
    assert pairings == (
        Pairing(1, 11, 22, _at(1)),
        Pairing(2, 33, 11, _at(2)),
        Pairing(3, 22, 33, _at(3)),
    )
    assert Counter(pairing.white for pairing in pairings) == {11: 1, 22: 1, 33: 1}


def test_group_of_4_follows_the_berger_table_HGV_2_3_4_HGV_7_4_8() -> None:
    pairings = round_robin((1, 2, 3, 4), START, HGV.round_minutes)
    assert _table(pairings) == [(1, 1, 4), (1, 2, 3), (2, 4, 3), (2, 1, 2), (3, 2, 4), (3, 3, 1)]
    assert [pairing.start for pairing in pairings] == [_at(r) for r in (1, 1, 2, 2, 3, 3)]


def test_group_of_5_HGV_2_3_4_HGV_7_4_8() -> None:
    pairings = round_robin((1, 2, 3, 4, 5), START, HGV.round_minutes)
    assert _table(pairings) == [
        (1, 1, 4),
        (1, 2, 3),
        (2, 4, 2),
        (2, 5, 1),
        (3, 2, 5),
        (3, 3, 4),
        (4, 5, 3),
        (4, 1, 2),
        (5, 3, 1),
        (5, 4, 5),
    ]
    assert pairings[-1].start == _at(5)
    whites = Counter(pairing.white for pairing in pairings)
    assert whites == {1: 2, 2: 2, 3: 2, 4: 2, 5: 2}


def test_group_of_2_is_one_match() -> None:
    assert round_robin((8, 9), START, HGV.round_minutes) == (Pairing(1, 8, 9, START),)


def test_the_start_time_keeps_its_time_zone_HGV_2_3_4() -> None:
    pairings = round_robin((1, 2, 3), START, HGV.round_minutes)
    assert all(pairing.start.utcoffset() == timedelta(hours=-4) for pairing in pairings)
    assert pairings[-1].start == datetime(2014, 1, 18, 19, 0, tzinfo=UTC) + timedelta(
        minutes=2 * HGV.round_minutes
    )


def test_a_naive_start_time_is_refused() -> None:
    with pytest.raises(ValueError):
        round_robin((1, 2, 3), datetime(2014, 1, 18, 15, 0), HGV.round_minutes)


def test_a_player_named_twice_is_refused() -> None:
    with pytest.raises(ValueError):
        round_robin((1, 2, 2), START, HGV.round_minutes)


def test_a_round_must_last_a_minute_or_more() -> None:
    with pytest.raises(ValueError):
        round_robin((1, 2, 3), START, 0)


def test_a_lone_player_has_no_matches() -> None:
    assert round_robin((1,), START, HGV.round_minutes) == ()


# Property tests: any group size a draw can make, any start and round length.

groups = st.lists(st.integers(min_value=1, max_value=10_000), min_size=2, max_size=17, unique=True)
starts = st.datetimes(
    min_value=datetime(2000, 1, 1),
    max_value=datetime(2100, 1, 1),
    timezones=st.sampled_from((UTC, CARACAS, timezone(timedelta(hours=2)))),
)
minutes = st.integers(min_value=1, max_value=24 * 60)


@settings(max_examples=150, deadline=None)
@given(groups, starts, minutes)
def test_every_pair_meets_exactly_once_HGV_2_3_4(
    players: list[int], start: datetime, round_minutes: int
) -> None:
    pairings = round_robin(players, start, round_minutes)
    met = Counter(frozenset((pairing.white, pairing.black)) for pairing in pairings)
    assert set(met) == {frozenset(pair) for pair in combinations(players, 2)}
    assert set(met.values()) == {1}


@settings(max_examples=150, deadline=None)
@given(groups, starts, minutes)
def test_no_player_plays_twice_in_a_round_HGV_2_3_4(
    players: list[int], start: datetime, round_minutes: int
) -> None:
    pairings = round_robin(players, start, round_minutes)
    rounds = {pairing.round for pairing in pairings}
    assert rounds == set(range(1, len(players) + len(players) % 2))
    for number in rounds:
        seated = [
            p for pairing in pairings if pairing.round == number for p in pairing_players(pairing)
        ]
        assert len(seated) == len(set(seated))
        # With an odd count exactly one player sits out; with an even count nobody.
        assert len(seated) == len(players) - len(players) % 2
    # The first seed plays in round 1.
    assert any(players[0] in pairing_players(p) for p in pairings if p.round == 1)


@settings(max_examples=150, deadline=None)
@given(groups, starts, minutes)
def test_colours_are_balanced_within_one_HGV_7_4_8(
    players: list[int], start: datetime, round_minutes: int
) -> None:
    pairings = round_robin(players, start, round_minutes)
    whites = Counter(pairing.white for pairing in pairings)
    blacks = Counter(pairing.black for pairing in pairings)
    for player in players:
        assert abs(whites[player] - blacks[player]) <= 1
        if len(players) % 2 == 1:
            assert whites[player] == blacks[player]


@settings(max_examples=150, deadline=None)
@given(groups, starts, minutes)
def test_start_times_are_published_per_round_HGV_2_3_4(
    players: list[int], start: datetime, round_minutes: int
) -> None:
    pairings = round_robin(players, start, round_minutes)
    times = [pairing.start for pairing in pairings]
    assert times == sorted(times)
    assert [pairing.round for pairing in pairings] == sorted(p.round for p in pairings)
    for pairing in pairings:
        assert pairing.start == start + timedelta(minutes=(pairing.round - 1) * round_minutes)
        assert pairing.start.tzinfo is start.tzinfo


def pairing_players(pairing: Pairing) -> tuple[int, int]:
    """Return both players of a pairing, white first."""
    return (pairing.white, pairing.black)
