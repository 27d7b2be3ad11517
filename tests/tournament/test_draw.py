"""Group draws: snake seeding by ranking (HGV-7.2.1) and groups by lot (NAV-I)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.draw import (
    Draw,
    DrawInputs,
    draw_groups,
    fingerprint,
    group_count,
    group_sizes,
    seed_order,
)
from tournament.preset import GroupMethod, load_preset

HGV = load_preset("hgv-backgammon").groups
NAV = load_preset("navodari-table").groups

# The seed's own worked example (seed 004, 7.2.1): ranking places per group.
HGV_39_TABLE = (
    (1, 26, 27),
    (2, 25, 28),
    (3, 24, 29),
    (4, 23, 30),
    (5, 22, 31),
    (6, 21, 32),
    (7, 20, 33),
    (8, 19, 34),
    (9, 18, 35),
    (10, 17, 36),
    (11, 16, 37),
    (12, 15, 38),
    (13, 14, 39),
)


def _player(place: int) -> int:
    """Return the storage id of the player ranked `place`; ids differ from places."""
    return 1000 + 7 * place


def test_snake_table_for_39_players_HGV_7_2_1() -> None:
    ranking = tuple(_player(place) for place in range(1, 40))
    registered = tuple(random.Random(1).sample(ranking, len(ranking)))
    draw = draw_groups(DrawInputs(HGV.method, registered, ranking, HGV.size, seed=2014))
    expected = tuple(tuple(_player(place) for place in row) for row in HGV_39_TABLE)
    assert HGV.method == "snake"
    assert draw.groups == expected
    assert draw.seeding == ranking


def test_a_40th_player_makes_one_group_of_4_HGV_7_2_1() -> None:
    ranking = tuple(range(1, 41))
    draw = draw_groups(DrawInputs(HGV.method, ranking, ranking, HGV.size, seed=0))
    assert len(draw.groups) == 13
    assert draw.groups[12] == (13, 14, 39, 40)
    assert [len(group) for group in draw.groups] == [3] * 12 + [4]


def test_absent_ranked_players_are_skipped_and_everyone_moves_up_HGV_7_2_1() -> None:
    ranking = (10, 20, 30, 40, 50, 60, 70, 80, 90)
    playing = (90, 60, 10, 30, 50, 80, 70)  # 20 and 40 do not play
    draw = draw_groups(DrawInputs("snake", playing, ranking, HGV.size, seed=5))
    assert draw.seeding == (10, 30, 50, 60, 70, 80, 90)
    # 7 players in groups of 3 make 2 groups: 10 and 30 are seeds 1 and 2.
    assert draw.groups == ((10, 60, 70), (30, 50, 80, 90))


def test_newcomers_come_after_the_ranked_players_by_lot_HGV_7_2_1() -> None:
    ranking = (5, 3, 8)
    newcomers = (21, 22, 23, 24, 25, 26)
    players = (21, 8, 22, 23, 3, 24, 25, 5, 26)
    orders = {seed_order(players, ranking, seed)[3:] for seed in range(30)}
    for seed in range(30):
        seeding = seed_order(players, ranking, seed)
        assert seeding[:3] == ranking
        assert sorted(seeding[3:]) == list(newcomers)
    assert len(orders) > 1  # the order among newcomers is a lot, not registration order


def test_newcomer_lot_does_not_depend_on_registration_order_HGV_7_2_1() -> None:
    players = (31, 12, 47, 5, 26, 88)
    reordered = tuple(reversed(players))
    for seed in range(20):
        assert seed_order(players, (), seed) == seed_order(reordered, (), seed)


def test_the_draw_can_be_rerun_from_the_published_recipe_NAV_I() -> None:
    """Anyone with Python can redo the draw from the documented steps and the seed."""
    ranking = (4, 9, 1)
    players = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18)
    draw = draw_groups(DrawInputs(NAV.method, players, ranking, NAV.size, seed=20170917))

    rng = random.Random(20170917)
    newcomers = sorted(set(players) - set(ranking))
    rng.shuffle(newcomers)
    seeding = [*ranking, *newcomers]
    shuffled = list(seeding)
    rng.shuffle(shuffled)
    groups = [shuffled[index * NAV.size : (index + 1) * NAV.size] for index in range(4)]
    for player, target in zip(shuffled[16:], rng.sample(range(4), 2), strict=True):
        groups[target].append(player)

    assert draw.seeding == tuple(seeding)
    assert draw.groups == tuple(tuple(group) for group in groups)


def test_extra_players_are_drawn_into_distinct_groups_NAV_I() -> None:
    players = tuple(range(1, 19))
    larger: set[tuple[int, ...]] = set()
    for seed in range(40):
        draw = draw_groups(DrawInputs(NAV.method, players, (), NAV.size, seed))
        sizes = [len(group) for group in draw.groups]
        assert len(sizes) == 4
        assert sorted(sizes) == [NAV.size, NAV.size, NAV.size + 1, NAV.size + 1]
        larger.add(tuple(index for index, size in enumerate(sizes) if size > NAV.size))
    assert len(larger) > 1  # which groups get a fifth player is drawn by lot


def test_one_extra_player_makes_one_group_of_5_NAV_I() -> None:
    draw = draw_groups(DrawInputs(NAV.method, tuple(range(1, 18)), (), NAV.size, seed=3))
    assert sorted(len(group) for group in draw.groups) == [4, 4, 4, 5]


def test_few_players_spread_as_evenly_as_possible_with_the_larger_groups_by_lot() -> None:
    # 11 in groups of 4: two groups cannot take 3 extras, so three groups of 4, 4, 3.
    players = tuple(range(1, 12))
    smaller: set[int] = set()
    for seed in range(30):
        draw = draw_groups(DrawInputs("random", players, (), NAV.size, seed))
        sizes = [len(group) for group in draw.groups]
        assert sorted(sizes) == [3, 4, 4]
        smaller.add(sizes.index(3))
    assert len(smaller) > 1


def test_snake_with_few_players_HGV_7_2_1() -> None:
    draw = draw_groups(DrawInputs("snake", (1, 2, 3, 4, 5), (1, 2, 3, 4, 5), HGV.size, 0))
    assert draw.groups == ((1, 4, 5), (2, 3))


@pytest.mark.parametrize(
    ("players", "hgv_groups", "nav_groups"),
    [
        (2, 1, 1),
        (3, 1, 1),
        (4, 1, 1),
        (5, 2, 1),
        (6, 2, 2),
        (7, 2, 2),
        (8, 2, 2),
        (11, 3, 3),
        (16, 5, 4),
        (18, 6, 4),
        (20, 6, 5),
        (39, 13, 9),
        (40, 13, 10),
        (41, 13, 10),
        (42, 14, 10),
    ],
)
def test_group_count_table_HGV_7_2_1_NAV_I(players: int, hgv_groups: int, nav_groups: int) -> None:
    assert group_count(players, HGV.size) == hgv_groups
    assert group_count(players, NAV.size) == nav_groups


@pytest.mark.parametrize(
    ("players", "size", "sizes"),
    [
        (5, 3, (3, 2)),
        (7, 3, (4, 3)),
        (8, 3, (4, 4)),
        (4, 3, (4,)),
        (2, 3, (2,)),
        (18, 4, (5, 5, 4, 4)),
        (6, 4, (3, 3)),
        (11, 4, (4, 4, 3)),
        (10, 8, (5, 5)),
    ],
)
def test_group_sizes(players: int, size: int, sizes: tuple[int, ...]) -> None:
    assert group_sizes(players, size) == sizes


def test_fewer_than_two_players_cannot_be_drawn() -> None:
    with pytest.raises(ValueError):
        group_count(1, HGV.size)
    with pytest.raises(ValueError):
        draw_groups(DrawInputs("snake", (7,), (7,), HGV.size, 0))


def test_a_group_size_below_two_is_refused() -> None:
    with pytest.raises(ValueError):
        group_count(10, 1)


def test_a_player_named_twice_is_refused() -> None:
    with pytest.raises(ValueError):
        seed_order((1, 2, 2), (), 0)
    with pytest.raises(ValueError):
        seed_order((1, 2, 3), (3, 1, 3), 0)


def test_fingerprint_is_short_stable_and_follows_the_inputs() -> None:
    inputs = DrawInputs("random", (1, 2, 3, 4, 5), (3, 1), 4, seed=42)
    digest = fingerprint(inputs)
    # Pinned: a published fingerprint must still match after an upgrade.
    assert digest == "298e8e5523bace79"
    assert fingerprint(DrawInputs("random", (1, 2, 3, 4, 5), (3, 1), 4, seed=42)) == digest
    assert fingerprint(DrawInputs("random", (1, 2, 3, 4, 5), (3, 1), 4, seed=43)) != digest
    assert fingerprint(DrawInputs("snake", (1, 2, 3, 4, 5), (3, 1), 4, seed=42)) != digest


def test_different_seeds_give_different_draws_NAV_I() -> None:
    players = tuple(range(1, 21))
    draws = {
        draw_groups(DrawInputs("random", players, (), NAV.size, seed)).groups for seed in range(10)
    }
    assert len(draws) == 10


# Property tests: any player count, size, seed and method.


@st.composite
def draw_inputs(draw: st.DrawFn) -> DrawInputs:
    count = draw(st.integers(min_value=2, max_value=200))
    players = draw(
        st.lists(
            st.integers(min_value=1, max_value=10_000), min_size=count, max_size=count, unique=True
        )
    )
    absent = draw(st.lists(st.integers(min_value=10_001, max_value=10_100), unique=True))
    ranked = draw(st.lists(st.sampled_from(players), unique=True))
    ranking = draw(st.permutations([*ranked, *absent]))
    method: GroupMethod = draw(st.sampled_from(("snake", "random")))
    size = draw(st.integers(min_value=2, max_value=8))
    seed = draw(st.integers(min_value=0, max_value=2**63))
    return DrawInputs(method, tuple(players), tuple(ranking), size, seed)


@settings(max_examples=150, deadline=None)
@given(draw_inputs())
def test_groups_partition_the_players_HGV_7_2_1_NAV_I(inputs: DrawInputs) -> None:
    result = draw_groups(inputs)
    everyone = [player for group in result.groups for player in group]
    assert Counter(everyone) == Counter(inputs.players)
    assert sorted(result.seeding) == sorted(inputs.players)


@settings(max_examples=150, deadline=None)
@given(draw_inputs())
def test_group_sizes_follow_the_rule_HGV_7_2_1_NAV_I(inputs: DrawInputs) -> None:
    sizes = [len(group) for group in draw_groups(inputs).groups]
    players, size = len(inputs.players), inputs.group_size
    full, extra = divmod(players, size)
    assert max(sizes) - min(sizes) <= 1
    assert min(sizes) >= 2
    if players < size:
        assert sizes == [players]
    elif extra <= full:
        # Groups of the chosen size, the extras one each into distinct groups.
        assert len(sizes) == full
        assert sorted(sizes) == [size] * (full - extra) + [size + 1] * extra
    else:
        # Too many extras to go one each: one more group, none above the size.
        assert len(sizes) == full + 1
        assert max(sizes) <= size


@settings(max_examples=150, deadline=None)
@given(draw_inputs())
def test_the_same_inputs_give_the_same_draw(inputs: DrawInputs) -> None:
    copy = DrawInputs(
        inputs.method, tuple(inputs.players), tuple(inputs.ranking), inputs.group_size, inputs.seed
    )
    first, second = draw_groups(inputs), draw_groups(copy)
    assert first == second
    assert isinstance(first, Draw)
    assert first.inputs == inputs
    assert fingerprint(inputs) == fingerprint(copy)


@settings(max_examples=150, deadline=None)
@given(draw_inputs())
def test_seeding_puts_ranked_players_first_in_ranking_order_HGV_7_2_1(inputs: DrawInputs) -> None:
    seeding = draw_groups(inputs).seeding
    playing = set(inputs.players)
    ranked = tuple(player for player in inputs.ranking if player in playing)
    assert seeding[: len(ranked)] == ranked
    assert set(seeding[len(ranked) :]) == playing - set(inputs.ranking)


@settings(max_examples=150, deadline=None)
@given(draw_inputs())
def test_snake_keeps_the_top_seeds_apart_HGV_7_2_1(inputs: DrawInputs) -> None:
    snake = DrawInputs("snake", inputs.players, inputs.ranking, inputs.group_size, inputs.seed)
    result = draw_groups(snake)
    count = len(result.groups)
    group_of = {player: index for index, group in enumerate(result.groups) for player in group}
    top = result.seeding[:count]
    assert sorted(group_of[player] for player in top) == list(range(count))
    # Seed g heads group g, and every group lists its players best seed first.
    rank = {player: index for index, player in enumerate(result.seeding)}
    for index, group in enumerate(result.groups):
        assert group[0] == result.seeding[index]
        assert [rank[player] for player in group] == sorted(rank[player] for player in group)
