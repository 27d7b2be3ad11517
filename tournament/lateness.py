"""Lateness arithmetic for one match (HGV-2.3.1, CLUB-BOTH-ABSENT, CLUB-PRESENCE).

A match's lateness clock runs from its published start while it has not begun; the
director may pause it. Every full step a player is late, the present opponent gets the
preset's points; at the forfeit time an absent player loses by forfeit.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import datetime, timedelta

from tournament.preset import LatenessRules
from tournament.state import Entry, Span


def forfeit_minutes(rules: LatenessRules, length: int) -> int:
    """Return how many minutes late a player may be before losing by forfeit."""
    if rules.forfeit_after_minutes:
        return rules.forfeit_after_minutes
    if rules.points_per_step == 0:
        # No points to reach the length with: forfeit after as many steps as the length.
        return rules.step_minutes * length
    return rules.step_minutes * math.ceil(length / rules.points_per_step)


def point_steps(rules: LatenessRules, length: int) -> list[int]:
    """Return the step numbers that award points before the forfeit."""
    if rules.points_per_step == 0:
        return []
    last = forfeit_minutes(rules, length)
    return [k for k in range(1, last // rules.step_minutes + 1) if k * rules.step_minutes < last]


def clock_reads(start: datetime, pauses: Sequence[Span], offset: timedelta) -> datetime | None:
    """Return when a lateness clock started at `start` reads `offset`; None while paused."""
    moment, remaining = start, offset
    for span in sorted(pauses, key=lambda s: s.start):
        if span.end is not None and span.end <= moment:
            continue
        pause_start = max(span.start, moment)
        if pause_start >= moment + remaining:
            break
        remaining -= pause_start - moment
        if span.end is None:
            return None
        moment = span.end
    return moment + remaining


def both_present_from(a: Entry, b: Entry, start: datetime) -> datetime | None:
    """Return the first moment at or after `start` when both players are present."""
    moment: datetime | None = start
    # Alternate until both are present at the same moment; spans are few.
    for _ in range(2 * (len(a.presence) + len(b.presence)) + 2):
        if moment is None:
            return None
        arrived_a = a.arrived_by(moment)
        if arrived_a is None:
            return None
        arrived_b = b.arrived_by(arrived_a)
        if arrived_b is None:
            return None
        if a.present_at(arrived_b):
            return arrived_b
        moment = arrived_b
    return None
