"""Bronstein delay clock settings for a backgammon match (HGV-7.6)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from tournament.preset import ClockRules


@dataclass(frozen=True, slots=True)
class ClockSetting:
    """What to set on the clock: each player's (or team's) reserve and per-move delay."""

    reserve: timedelta
    delay: timedelta


def clock_for(
    rules: ClockRules,
    length: int,
    *,
    doubles: bool = False,
    scored: int = 0,
    final_stage: bool = False,
) -> ClockSetting:
    """Return the clock setting for a match of `length` points (HGV-7.6).

    `scored` is the total of both players' points already on the board when the clock
    is brought into a match under way: HGV-7.6.2 takes a minute off "for each point
    played and already written on the scoreboard", whoever scored it. The reserve never
    goes below zero. A semi-final or final (`final_stage`) gets the preset's fixed
    reserve and delay whatever its length, less the same deduction when under way;
    doubles use the doubles rate per point and doubles delay.
    """
    if length < 1:
        raise ValueError(f"match length must be at least 1, got {length}")
    if scored < 0:
        raise ValueError(f"points scored cannot be negative, got {scored}")
    if final_stage:
        minutes, delay = rules.final_stages_reserve_minutes, rules.final_stages_delay_seconds
    elif doubles:
        minutes = rules.doubles_reserve_minutes_per_point * length
        delay = rules.doubles_delay_seconds
    else:
        minutes, delay = rules.reserve_minutes_per_point * length, rules.delay_seconds
    minutes = max(0.0, minutes - rules.under_way_minutes_per_point_scored * scored)
    return ClockSetting(reserve=timedelta(minutes=minutes), delay=timedelta(seconds=delay))
