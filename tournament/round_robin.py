"""The round robin of a group (HGV-2.3.4), with colours by the Berger tables (HGV-7.4.8).

Players get labels 1..n (n even; with an odd count the last label is a bye, and
whoever meets it sits the round out). Label n stays put while the others rotate: in
round r it meets the label p with 2p = r + 1 (mod n - 1), white in even rounds. The
other tables pair p + k (white) with p - k (mod n - 1, labels 1..n-1), k = 1, 2, ...
This is the Berger table, in which each player's whites and blacks differ by at most 1.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from tournament.model import PlayerId


@dataclass(frozen=True, slots=True)
class Pairing:
    """One group match: the first-named player plays white (HGV-7.4.8)."""

    round: int
    white: PlayerId
    black: PlayerId
    start: datetime


def round_robin(
    players: Sequence[PlayerId], start: datetime, round_minutes: int
) -> tuple[Pairing, ...]:
    """Return every match of the group, by round and then by table."""
    step = timedelta(minutes=round_minutes)
    return tuple(
        Pairing(round=number, white=white, black=black, start=start + (number - 1) * step)
        for number, white, black in pairings_of(players, start, round_minutes)
    )


def pairings_of(
    players: Sequence[PlayerId], start: datetime, round_minutes: int
) -> list[tuple[int, PlayerId, PlayerId]]:
    """Return (round, white, black) for every match of the group, as `round_robin` does;
    the start of round r is `start` plus r - 1 rounds of `round_minutes`."""
    if len(set(players)) != len(players):
        raise ValueError("a group names a player twice")
    if start.tzinfo is None or start.utcoffset() is None:
        raise ValueError("the start time must be timezone-aware")
    if round_minutes < 1:
        raise ValueError(f"a round lasts 1 minute or more, got {round_minutes}")
    labels = _labels(players)
    found: list[tuple[int, PlayerId, PlayerId]] = []
    for number, tables in enumerate(_berger(len(labels)), 1):
        for white, black in tables:
            first, second = labels[white], labels[black]
            if first is not None and second is not None:
                found.append((number, first, second))
    return found


@functools.lru_cache(maxsize=64)
def _berger(size: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Return the Berger table of `size` labels (even): per round, the (white, black)
    label pairs, 0-based, by table."""
    # The same for every group of a size: built once, not once per group.
    cycle = size - 1
    rounds: list[tuple[tuple[int, int], ...]] = []
    for number in range(1, size):
        # p is the label with 2p = number + 1 (mod cycle); labels run 1..cycle.
        p = (number + 1) * (cycle + 1) // 2 % cycle or cycle
        tables = [(p, size) if number % 2 == 1 else (size, p)]
        tables += [((p + k - 1) % cycle + 1, (p - k - 1) % cycle + 1) for k in range(1, size // 2)]
        rounds.append(tuple((white - 1, black - 1) for white, black in tables))
    return tuple(rounds)


def _labels(players: Sequence[PlayerId]) -> list[PlayerId | None]:
    if len(players) % 2 == 0:
        return list(players)
    # Label 1 meets the bye in round 1: give it the last player, so the first seed
    # plays at once.
    return [players[-1], *players[:-1], None]
