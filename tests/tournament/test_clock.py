"""Bronstein delay clock settings (HGV-7.6)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.clock import ClockSetting, clock_for
from tournament.preset import load_preset

HGV = load_preset("hgv-backgammon")
CLOCK = HGV.clock


def minutes(value: float) -> timedelta:
    return timedelta(minutes=value)


def seconds(value: int) -> timedelta:
    return timedelta(seconds=value)


def test_three_point_singles_match_HGV_7_6() -> None:
    length = HGV.groups.match_length
    assert length == 3
    assert clock_for(CLOCK, length) == ClockSetting(reserve=minutes(6), delay=seconds(10))


def test_five_point_singles_match_HGV_7_6() -> None:
    setting = clock_for(CLOCK, HGV.knockout.match_length)
    assert setting == ClockSetting(reserve=minutes(10), delay=seconds(10))


def test_doubles_match_two_and_a_half_minutes_a_point_HGV_7_6() -> None:
    setting = clock_for(CLOCK, HGV.groups.match_length, doubles=True)
    assert setting == ClockSetting(reserve=minutes(7.5), delay=seconds(18))


def test_five_point_match_under_way_at_2_1_HGV_7_6() -> None:
    # HGV-7.6.2: 2 minutes per match point (10) less 1 per point on the board (3).
    setting = clock_for(CLOCK, HGV.knockout.match_length, scored=2 + 1)
    assert setting == ClockSetting(reserve=minutes(7), delay=seconds(10))


def test_doubles_under_way_deducts_the_same_minute_a_point_HGV_7_6() -> None:
    setting = clock_for(CLOCK, HGV.knockout.match_length, doubles=True, scored=4)
    assert setting == ClockSetting(reserve=minutes(12.5 - 4), delay=seconds(18))


def test_reserve_never_below_zero_HGV_7_6() -> None:
    setting = clock_for(CLOCK, HGV.groups.match_length, scored=7)
    assert setting == ClockSetting(reserve=timedelta(0), delay=seconds(10))


def test_semi_final_and_final_fixed_at_14_minutes_HGV_7_6() -> None:
    expected = ClockSetting(reserve=minutes(14), delay=seconds(10))
    assert clock_for(CLOCK, HGV.knockout.semi_final_length, final_stage=True) == expected
    assert clock_for(CLOCK, HGV.knockout.final_length, final_stage=True) == expected
    # Regardless of length: a final shortened to 3 points keeps the 14 minutes.
    assert clock_for(CLOCK, HGV.groups.match_length, final_stage=True) == expected
    assert clock_for(CLOCK, HGV.knockout.final_length, doubles=True, final_stage=True) == expected


def test_final_under_way_deducts_points_scored_HGV_7_6() -> None:
    setting = clock_for(CLOCK, HGV.knockout.final_length, scored=5, final_stage=True)
    assert setting.reserve == minutes(9)


def test_clock_numbers_come_from_the_preset_HGV_7_6() -> None:
    rules = load_preset(
        "hgv-backgammon", {"clock.delay_seconds": "12", "clock.reserve_minutes_per_point": "3"}
    ).clock
    assert clock_for(rules, 3) == ClockSetting(reserve=minutes(9), delay=seconds(12))


@pytest.mark.parametrize(("length", "scored"), [(0, 0), (-3, 0), (3, -1)])
def test_nonsense_arguments_refused(length: int, scored: int) -> None:
    with pytest.raises(ValueError):
        clock_for(CLOCK, length, scored=scored)


@given(length=st.integers(1, 99), scored=st.integers(0, 300), doubles=st.booleans())
@settings(max_examples=150)
def test_reserve_shrinks_with_points_scored_HGV_7_6(
    length: int, scored: int, doubles: bool
) -> None:
    fresh = clock_for(CLOCK, length, doubles=doubles)
    under_way = clock_for(CLOCK, length, doubles=doubles, scored=scored)
    assert under_way.delay == fresh.delay
    assert under_way.reserve == max(timedelta(0), fresh.reserve - minutes(scored))
