"""Group draws: snake seeding by ranking (HGV-7.2.1) and a random draw by lot (NAV-I).

A draw is reproducible from its inputs alone, so the seed is published with the
groups and any player can re-run it with Python's `random.Random(seed)`:

1. `rng = random.Random(seed)`.
2. Seed order: ranked players who play, best first; then newcomers (not in the
   ranking), sorted by id and put in order by `rng.shuffle`.
3. Snake: seeds are dealt 1..G, G..1, 1..G, ... into groups 1..G.
4. Random: `rng.shuffle` (the same generator, continued) shuffles a copy of the seed
   order, which is cut into G groups of equal size in order; then
   `rng.sample(range(G), k)` picks the distinct groups (0-based) that receive the k
   players left over, one each, in the order they were left over.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Sequence
from dataclasses import dataclass

from tournament.model import PlayerId
from tournament.preset import GroupMethod

# Bump when the algorithm changes, so a published fingerprint never matches a draw
# that a newer version would make differently.
_ALGORITHM = "clubtd-draw-1"


@dataclass(frozen=True, slots=True)
class DrawInputs:
    """Everything a draw depends on; published with the groups."""

    method: GroupMethod
    players: tuple[PlayerId, ...]
    ranking: tuple[PlayerId, ...]
    group_size: int
    seed: int


@dataclass(frozen=True, slots=True)
class Draw:
    """The groups of a draw and the seed order it used."""

    inputs: DrawInputs
    seeding: tuple[PlayerId, ...]
    groups: tuple[tuple[PlayerId, ...], ...]


def seed_order(
    players: Sequence[PlayerId], ranking: Sequence[PlayerId], seed: int
) -> tuple[PlayerId, ...]:
    """Return the seed order: ranked players who play, then newcomers by lot."""
    return _seed_order(players, ranking, random.Random(seed))


def _seed_order(
    players: Sequence[PlayerId], ranking: Sequence[PlayerId], rng: random.Random
) -> tuple[PlayerId, ...]:
    _check_unique(players, "players")
    _check_unique(ranking, "ranking")
    playing = set(players)
    # Absent ranked players are skipped, so everyone below them moves up.
    ranked = [player for player in ranking if player in playing]
    listed = set(ranking)
    # Sorted first, so the lot does not depend on registration order.
    newcomers = sorted(player for player in players if player not in listed)
    rng.shuffle(newcomers)
    return (*ranked, *newcomers)


def group_count(player_count: int, group_size: int) -> int:
    """Return how many groups `player_count` players form with groups of `group_size`."""
    if group_size < 2:
        raise ValueError(f"group size must be 2 or more, got {group_size}")
    if player_count < 2:
        raise ValueError(f"a draw needs 2 players or more, got {player_count}")
    count, extra = divmod(player_count, group_size)
    if count == 0:
        return 1
    # One extra player per group at most; beyond that a smaller group is added.
    return count + 1 if extra > count else count


def group_sizes(player_count: int, group_size: int) -> tuple[int, ...]:
    """Return the group sizes, largest first, spread as evenly as possible.

    Which groups are the larger ones is for the method to decide.
    """
    count = group_count(player_count, group_size)
    base, larger = divmod(player_count, count)
    return (base + 1,) * larger + (base,) * (count - larger)


def draw_groups(inputs: DrawInputs) -> Draw:
    """Return the draw for `inputs`; the same inputs always give the same draw."""
    # One generator for the whole draw: a second `Random(seed)` would repeat the
    # newcomers' shuffle, and a permutation applied twice is not a fair lot.
    rng = random.Random(inputs.seed)
    seeding = _seed_order(inputs.players, inputs.ranking, rng)
    count = group_count(len(seeding), inputs.group_size)
    if inputs.method == "snake":
        groups = _snake(seeding, count)
    elif inputs.method == "random":
        groups = _by_lot(seeding, count, inputs.group_size, rng)
    else:
        raise ValueError(f"unknown group method {inputs.method!r}")
    return Draw(inputs=inputs, seeding=seeding, groups=groups)


def fingerprint(inputs: DrawInputs) -> str:
    """Return a short stable hex digest of the inputs, to publish with the seed.

    A draw depends on the players' ids only through their order (newcomers are sorted
    before the lot) and skips ranked players who do not play, so players enter as their
    places in that order (1 = lowest id): two databases that number the same players
    apart (a PostgreSQL sequence skips a number a refused command took) publish one
    fingerprint for one draw.
    """
    place = {player: index for index, player in enumerate(sorted(inputs.players), 1)}
    canonical = json.dumps(
        {
            "algorithm": _ALGORITHM,
            "method": inputs.method,
            "players": [place[p] for p in inputs.players],
            "ranking": [place[p] for p in inputs.ranking if p in place],
            "group_size": inputs.group_size,
            "seed": inputs.seed,
        },
        sort_keys=True,
        separators=(",", ":"),
    )
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:16]


def _snake(seeding: Sequence[PlayerId], count: int) -> tuple[tuple[PlayerId, ...], ...]:
    groups: list[list[PlayerId]] = [[] for _ in range(count)]
    for index, player in enumerate(seeding):
        row, column = divmod(index, count)
        target = column if row % 2 == 0 else count - 1 - column
        groups[target].append(player)
    return tuple(tuple(group) for group in groups)


def _by_lot(
    seeding: Sequence[PlayerId], count: int, group_size: int, rng: random.Random
) -> tuple[tuple[PlayerId, ...], ...]:
    shuffled = list(seeding)
    rng.shuffle(shuffled)
    # Groups of the preset's size; when a smaller group had to be added (few players),
    # the even share is smaller than that size and the leftovers still fit one each.
    size = min(group_size, len(shuffled) // count)
    groups = [shuffled[number * size : (number + 1) * size] for number in range(count)]
    leftovers = shuffled[count * size :]
    for player, target in zip(leftovers, rng.sample(range(count), len(leftovers)), strict=True):
        groups[target].append(player)
    return tuple(tuple(group) for group in groups)


def _check_unique(players: Sequence[PlayerId], name: str) -> None:
    if len(set(players)) != len(players):
        raise ValueError(f"{name} names a player twice")
