"""Group standings: match points, the tiebreak chains of HGV and Navodari, forfeits.

One file (just over 500 lines, issue 18): every tiebreak of tournament/standings.py, in
the order the chain applies them.
"""

import itertools
import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.model import PlayerId, Result
from tournament.preset import GroupRules, load_preset
from tournament.standings import ExtraGameNeeded, Standings, TiebreakNote, group_standings

ANA, BOB, CARL, DORA, EVA, FRED = 1, 2, 3, 4, 5, 6

HGV = load_preset("hgv-backgammon").groups
HGV_4 = load_preset("hgv-backgammon", {"group_size": 4}).groups
NAV = load_preset("navodari-table").groups
NAV_5 = load_preset("navodari-table", {"group_size": 5}).groups


def win(winner: PlayerId, loser: PlayerId, score: tuple[int, int]) -> Result:
    """Return a match `winner` won, `score` given winner first."""
    return Result(winner, loser, score[0], score[1], winner)


def forfeit(winner: PlayerId, loser: PlayerId, length: int) -> Result:
    """Return a match `loser` lost by forfeit once lateness reached `length`."""
    return Result(winner, loser, length, 0, winner, frozenset({loser}))


def double_forfeit(white: PlayerId, black: PlayerId) -> Result:
    return Result(white, black, 0, 0, None, frozenset({white, black}))


def standings(
    players: list[PlayerId],
    results: list[Result],
    rules: GroupRules,
    *,
    lot_seed: int = 7,
    extra: list[Result] | None = None,
) -> Standings:
    return group_standings(
        players, results, rules, lot_seed=lot_seed, extra_game_results=extra or []
    )


def records(table: Standings) -> list[tuple[int, int, int, int, int, int, int]]:
    return [
        (r.player, r.rank, r.won, r.lost, r.points_for, r.points_against, r.forfeits)
        for r in table.rows
    ]


def reasons(table: Standings) -> list[tuple[int, int, str, tuple[int, int]]]:
    return [(n.above, n.below, n.criterion, n.values) for n in table.notes]


# HGV-7.2.2 -----------------------------------------------------------------------------


def test_one_point_per_match_won_none_per_loss_HGV_7_2_2() -> None:
    table = standings(
        [CARL, BOB, ANA],
        [win(ANA, BOB, (3, 1)), win(ANA, CARL, (3, 0)), win(BOB, CARL, (3, 2))],
        HGV,
    )
    assert records(table) == [
        (ANA, 1, 2, 0, 6, 1, 0),
        (BOB, 2, 1, 1, 4, 5, 0),
        (CARL, 3, 0, 2, 2, 6, 0),
    ]
    assert table.notes == ()
    assert table.extra_games == ()
    assert table.order == (ANA, BOB, CARL)


def test_players_without_results_appear_and_absent_matches_are_not_played_HGV_7_2_2() -> None:
    table = standings([ANA, BOB, CARL, DORA], [win(DORA, BOB, (3, 2))], HGV_4)
    assert table.order[0] == DORA
    assert set(table.order[1:3]) == {ANA, CARL}
    assert table.order[3] == BOB  # on 0 points with Ana and Carl, but -1 overall
    assert [(r.won, r.lost, r.points_for) for r in table.rows[1:3]] == [(0, 0, 0), (0, 0, 0)]
    assert [r.rank for r in table.rows] == [1, 2, 3, 4]


def test_a_double_forfeit_is_a_loss_for_both_and_a_win_for_nobody_CLUB_BOTH_ABSENT() -> None:
    length = HGV.match_length
    table = standings(
        [ANA, BOB, CARL],
        [win(ANA, BOB, (length, 1)), win(ANA, CARL, (length, 0)), double_forfeit(BOB, CARL)],
        HGV,
    )
    assert records(table) == [
        (ANA, 1, 2, 0, 2 * length, 1, 0),
        (BOB, 2, 0, 2, 1, length, 1),
        (CARL, 3, 0, 2, 0, length, 1),
    ]
    # Both forfeited, so HGV-2.3.2 separates nobody; the overall difference does.
    assert reasons(table) == [(BOB, CARL, "points_diff_overall", (1 - length, -length))]


# HGV-7.2.3 -----------------------------------------------------------------------------


def test_wins_among_tied_decides_HGV_7_2_3() -> None:
    # Bob and Carl have 2 wins each; Bob beat Carl, though Carl's scores are bigger.
    table = standings(
        [ANA, BOB, CARL, DORA],
        [
            win(BOB, CARL, (3, 2)),
            win(BOB, DORA, (3, 2)),
            win(ANA, BOB, (3, 0)),
            win(CARL, ANA, (5, 0)),
            win(CARL, DORA, (5, 0)),
            win(DORA, ANA, (3, 0)),
        ],
        HGV_4,
    )
    assert table.order[:2] == (BOB, CARL)
    assert reasons(table)[0] == (BOB, CARL, "wins_among_tied", (1, 0))
    assert table.notes[0].among == (BOB, CARL)


def test_three_way_cycle_resolved_by_points_diff_among_tied_HGV_7_2_3() -> None:
    table = standings(
        [ANA, BOB, CARL],
        [win(ANA, BOB, (3, 0)), win(BOB, CARL, (3, 2)), win(CARL, ANA, (3, 2))],
        HGV,
    )
    assert table.order == (ANA, CARL, BOB)
    assert reasons(table) == [
        (ANA, CARL, "points_diff_among_tied", (2, 0)),
        (CARL, BOB, "points_diff_among_tied", (0, -2)),
    ]
    assert table.notes[0].among == (ANA, CARL, BOB)


def test_points_diff_overall_decides_when_the_tied_matches_are_level_HGV_7_2_3() -> None:
    # A cycle of 3-1 wins among Ana, Bob and Carl; their wins over Dora differ.
    table = standings(
        [DORA, CARL, BOB, ANA],
        [
            win(ANA, BOB, (3, 1)),
            win(BOB, CARL, (3, 1)),
            win(CARL, ANA, (3, 1)),
            win(ANA, DORA, (3, 0)),
            win(BOB, DORA, (3, 1)),
            win(CARL, DORA, (3, 2)),
        ],
        HGV_4,
    )
    assert table.order == (ANA, BOB, CARL, DORA)
    assert reasons(table) == [
        (ANA, BOB, "points_diff_overall", (3, 2)),
        (BOB, CARL, "points_diff_overall", (2, 1)),
    ]


LEVEL_CYCLE = [win(ANA, BOB, (3, 1)), win(BOB, CARL, (3, 1)), win(CARL, ANA, (3, 1))]


def test_only_the_lot_breaks_a_level_cycle_reproducibly_HGV_7_2_3() -> None:
    first = standings([ANA, BOB, CARL], LEVEL_CYCLE, HGV, lot_seed=2026)
    again = standings([CARL, BOB, ANA], list(reversed(LEVEL_CYCLE)), HGV, lot_seed=2026)
    assert again == first
    assert [n.criterion for n in first.notes] == ["lot", "lot"]
    # The values are the places drawn, above's first.
    assert [n.values for n in first.notes] == [(1, 2), (2, 3)]
    assert first.extra_games == ()
    orders = {standings([ANA, BOB, CARL], LEVEL_CYCLE, HGV, lot_seed=s).order for s in range(40)}
    assert len(orders) == 6  # the seed matters: every order comes up


def test_separate_tied_blocks_draw_independent_lots_HGV_7_2_3() -> None:
    lot = standings([ANA, BOB, CARL], LEVEL_CYCLE, HGV, lot_seed=11).order
    # The same three players, same seed, with a fourth player ahead of them.
    results = [*LEVEL_CYCLE, *(win(DORA, p, (3, 0)) for p in (ANA, BOB, CARL))]
    wider = standings([ANA, BOB, CARL, DORA], results, HGV_4, lot_seed=11)
    assert wider.order == (DORA, *lot)


def test_a_partial_split_restarts_the_chain_among_the_rest_HGV_7_2_3() -> None:
    # Ana, Bob, Carl and Dora on 3 wins. Among the four, Ana and Bob won 2, Carl and Dora 1.
    # Within each pair the chain restarts: Bob beat Ana, so Bob is above, although Ana's
    # point difference among the four (+11 to +1) is far better.
    results = [
        win(ANA, CARL, (6, 0)),
        win(ANA, DORA, (6, 0)),
        win(BOB, ANA, (3, 2)),
        win(BOB, CARL, (3, 2)),
        win(CARL, DORA, (3, 2)),
        win(DORA, BOB, (3, 2)),
        *(win(p, EVA, (3, 0)) for p in (ANA, BOB, CARL, DORA)),
        *(win(p, FRED, (3, 0)) for p in (CARL, DORA, EVA)),
        *(win(FRED, p, (3, 0)) for p in (ANA, BOB)),
    ]
    rules = load_preset("hgv-backgammon", {"group_size": 6}).groups
    table = standings([ANA, BOB, CARL, DORA, EVA, FRED], results, rules)
    assert table.order == (BOB, ANA, CARL, DORA, FRED, EVA)
    assert reasons(table) == [
        (BOB, ANA, "wins_among_tied", (1, 0)),
        (ANA, CARL, "wins_among_tied", (2, 1)),
        (CARL, DORA, "wins_among_tied", (1, 0)),
    ]
    assert [n.among for n in table.notes] == [
        (BOB, ANA),
        (BOB, ANA, CARL, DORA),
        (CARL, DORA),
    ]


# HGV-5.3 -------------------------------------------------------------------------------


def test_over_length_score_counts_in_the_difference_HGV_5_3() -> None:
    assert HGV.match_length < 4  # the seed's own example: a 3-point match ending 4-2
    table = standings(
        [ANA, BOB, CARL],
        [win(ANA, BOB, (4, 2)), win(BOB, CARL, (3, 2)), win(CARL, ANA, (3, 2))],
        HGV,
    )
    # Capped at 3-2 the cycle would be level everywhere; 4-2 gives Ana +1.
    assert table.order == (ANA, CARL, BOB)
    assert reasons(table) == [
        (ANA, CARL, "points_diff_among_tied", (1, 0)),
        (CARL, BOB, "points_diff_among_tied", (0, -1)),
    ]
    assert records(table)[0] == (ANA, 1, 1, 1, 6, 5, 0)


# HGV-2.3.2 -----------------------------------------------------------------------------

FORFEIT_CYCLE = [
    forfeit(BOB, ANA, HGV.match_length),
    win(ANA, CARL, (6, 0)),
    win(CARL, BOB, (3, 2)),
    win(ANA, DORA, (3, 0)),
    win(BOB, DORA, (3, 0)),
    win(CARL, DORA, (3, 0)),
]


def test_forfeit_goes_below_in_a_tie_even_when_the_chain_puts_it_above_HGV_2_3_2() -> None:
    assert HGV_4.forfeit_below_in_ties
    table = standings([ANA, BOB, CARL, DORA], FORFEIT_CYCLE, HGV_4)
    assert table.order == (CARL, BOB, ANA, DORA)
    assert reasons(table) == [
        (CARL, BOB, "wins_among_tied", (1, 0)),
        (BOB, ANA, "forfeit", (0, 1)),
    ]
    assert table.notes[0].among == (CARL, BOB)
    assert table.rows[2].forfeits == 1
    # Without HGV-2.3.2 the difference among the three would put Ana first.
    lenient = replace(HGV_4, forfeit_below_in_ties=False)
    assert standings([ANA, BOB, CARL, DORA], FORFEIT_CYCLE, lenient).order == (
        ANA,
        BOB,
        CARL,
        DORA,
    )


def test_forfeit_matters_only_within_a_tie_HGV_2_3_2() -> None:
    # Ana forfeited to Bob but won 3; Carl, Dora and Eva have 2 each: she stays first.
    results = [
        forfeit(BOB, ANA, HGV.match_length),
        *(win(ANA, p, (3, 0)) for p in (CARL, DORA, EVA)),
        *(win(p, BOB, (3, 0)) for p in (CARL, DORA, EVA)),
        win(CARL, DORA, (3, 0)),
        win(DORA, EVA, (3, 0)),
        win(EVA, CARL, (3, 0)),
    ]
    rules = load_preset("hgv-backgammon", {"group_size": 5}).groups
    table = standings([ANA, BOB, CARL, DORA, EVA], results, rules)
    assert (table.order[0], table.order[4]) == (ANA, BOB)
    assert (table.rows[0].won, table.rows[0].forfeits) == (3, 1)


# HGV-2.3.3 -----------------------------------------------------------------------------


def test_one_win_then_only_forfeits_removes_all_results_HGV_2_3_3() -> None:
    length = HGV.match_length
    results = [win(ANA, BOB, (3, 1)), forfeit(CARL, ANA, length), win(CARL, BOB, (3, 2))]
    table = standings([ANA, BOB, CARL], results, HGV)
    assert table.order == (CARL, BOB, ANA)
    # Carl keeps only the match against Bob; Bob's loss to Ana is gone too.
    assert records(table) == [
        (CARL, 1, 1, 0, 3, 2, 0),
        (BOB, 2, 0, 1, 2, 3, 0),
        (ANA, 3, 0, 0, 0, 0, 0),
    ]
    assert [r.removed for r in table.rows] == [False, False, True]
    assert table.notes == ()


def test_removed_players_go_last_even_below_a_winless_player_HGV_2_3_3() -> None:
    length = HGV_4.match_length
    results = [
        win(ANA, BOB, (3, 0)),
        forfeit(CARL, ANA, length),
        double_forfeit(ANA, DORA),
        win(BOB, CARL, (3, 0)),
        win(BOB, DORA, (3, 0)),
        win(CARL, DORA, (3, 0)),
    ]
    table = standings([ANA, BOB, CARL, DORA], results, HGV_4)
    assert table.order == (BOB, CARL, DORA, ANA)
    assert [(r.player, r.won, r.lost, r.removed) for r in table.rows] == [
        (BOB, 2, 0, False),
        (CARL, 1, 1, False),
        (DORA, 0, 2, False),
        (ANA, 0, 0, True),
    ]


def test_a_board_loss_or_a_second_win_keeps_the_results_HGV_2_3_3() -> None:
    length = HGV_4.match_length
    board_loss = [
        win(ANA, BOB, (3, 0)),
        forfeit(CARL, ANA, length),
        win(DORA, ANA, (3, 2)),
    ]
    table = standings([ANA, BOB, CARL, DORA], board_loss, HGV_4)
    assert not any(r.removed for r in table.rows)
    single_match = [win(ANA, BOB, (3, 0))]
    assert not any(r.removed for r in standings([ANA, BOB, CARL], single_match, HGV).rows)


def test_the_removal_is_off_for_navodari_HGV_2_3_3() -> None:
    assert not NAV.void_single_win_forfeiter
    results = [
        win(ANA, BOB, (5, 0)),
        forfeit(CARL, ANA, NAV.match_length),
        forfeit(DORA, ANA, NAV.match_length),
    ]
    table = standings([ANA, BOB, CARL, DORA], results, NAV)
    assert not any(r.removed for r in table.rows)
    assert table.rows[[r.player for r in table.rows].index(ANA)].won == 1


# NAV-TIE -------------------------------------------------------------------------------


def test_head_to_head_decides_two_tied_NAV_TIE() -> None:
    # Carl and Bob on 2 wins, Ana and Dora on 1: in each pair their own match decides,
    # though Bob's margins are far bigger than Carl's.
    results = [
        win(CARL, BOB, (5, 4)),
        win(CARL, ANA, (5, 4)),
        win(BOB, ANA, (5, 0)),
        win(BOB, DORA, (5, 0)),
        win(ANA, DORA, (5, 0)),
        win(DORA, CARL, (5, 4)),
    ]
    table = standings([ANA, BOB, CARL, DORA], results, NAV)
    assert NAV.tiebreaks[0] == "head_to_head"
    assert table.order == (CARL, BOB, ANA, DORA)
    assert reasons(table) == [
        (CARL, BOB, "head_to_head", (1, 0)),
        (ANA, DORA, "head_to_head", (1, 0)),
    ]
    assert table.extra_games == ()


# Ana, Bob and Carl beat each other in a circle and all beat Dora: places 1-3, 2 qualify.
NAV_CYCLE = [
    win(ANA, BOB, (5, 1)),
    win(BOB, CARL, (5, 2)),
    win(CARL, ANA, (5, 3)),
    *(win(p, DORA, (5, 0)) for p in (ANA, BOB, CARL)),
]


def test_a_cycle_touching_the_qualifiers_needs_extra_games_NAV_TIE() -> None:
    table = standings([ANA, BOB, CARL, DORA], NAV_CYCLE, NAV)
    assert NAV.qualifiers == 2
    assert len(table.extra_games) == 1
    assert set(table.extra_games[0].players) == {ANA, BOB, CARL}
    # Provisional order by lot, reproducible, and Dora stays last.
    assert table.extra_games[0].players == table.order[:3]
    assert table.order[3] == DORA
    assert [n.criterion for n in table.notes] == ["lot", "lot"]
    assert standings([DORA, CARL, BOB, ANA], NAV_CYCLE, NAV) == table


def test_a_cycle_below_the_qualifiers_is_settled_by_lot_NAV_TIE() -> None:
    # Five players: Ana and Bob clear, Carl, Dora and Eva in a circle on places 3-5.
    results = [
        *(win(ANA, p, (5, 0)) for p in (BOB, CARL, DORA, EVA)),
        *(win(BOB, p, (5, 0)) for p in (CARL, DORA, EVA)),
        win(CARL, DORA, (5, 0)),
        win(DORA, EVA, (5, 0)),
        win(EVA, CARL, (5, 0)),
    ]
    table = standings([ANA, BOB, CARL, DORA, EVA], results, NAV_5)
    assert NAV_5.qualifiers < 3
    assert table.extra_games == ()
    assert table.order[:2] == (ANA, BOB)
    assert set(table.order[2:]) == {CARL, DORA, EVA}
    assert [n.criterion for n in table.notes] == ["lot", "lot"]


def test_extra_game_results_settle_the_cycle_NAV_TIE() -> None:
    extra = [win(CARL, ANA, (1, 0)), win(CARL, BOB, (1, 0)), win(BOB, ANA, (1, 0))]
    assert extra[0].white_score == NAV.tiebreak_game_length
    table = standings([ANA, BOB, CARL, DORA], NAV_CYCLE, NAV, extra=extra)
    assert table.order == (CARL, BOB, ANA, DORA)
    assert table.extra_games == ()
    assert reasons(table) == [
        (CARL, BOB, "extra_game", (2, 1)),
        (BOB, ANA, "extra_game", (1, 0)),
    ]


def test_one_extra_game_then_head_to_head_among_the_rest_NAV_TIE() -> None:
    # Carl wins his extra game against Ana; Ana and Bob restart the chain, and Ana beat
    # Bob in the group.
    table = standings([ANA, BOB, CARL, DORA], NAV_CYCLE, NAV, extra=[win(CARL, ANA, (1, 0))])
    assert table.order == (CARL, ANA, BOB, DORA)
    assert reasons(table) == [
        (CARL, ANA, "extra_game", (1, 0)),
        (ANA, BOB, "head_to_head", (1, 0)),
    ]
    assert table.extra_games == ()


def test_extra_games_in_a_cycle_again_still_need_more_NAV_TIE() -> None:
    extra = [win(ANA, BOB, (1, 0)), win(BOB, CARL, (1, 0)), win(CARL, ANA, (1, 0))]
    table = standings([ANA, BOB, CARL, DORA], NAV_CYCLE, NAV, extra=extra)
    assert [set(e.players) for e in table.extra_games] == [{ANA, BOB, CARL}]


def test_a_result_from_outside_the_group_is_refused() -> None:
    with pytest.raises(ValueError, match="not a match of this group"):
        standings([ANA, BOB], [win(ANA, EVA, (3, 0))], HGV)
    with pytest.raises(ValueError, match="twice"):
        standings([ANA, ANA], [], HGV)


# Properties ----------------------------------------------------------------------------

RULES = {
    "hgv": HGV,
    "navodari": NAV,
    "warcaby": load_preset("warcaby-100").groups,
}


@st.composite
def round_robins(draw: st.DrawFn) -> tuple[list[PlayerId], list[Result], GroupRules]:
    rules = RULES[draw(st.sampled_from(sorted(RULES)))]
    count = draw(st.integers(2, 6))
    players = draw(st.permutations(range(10, 10 + count)))
    length = rules.match_length
    results: list[Result] = []
    for i, white in enumerate(players):
        for black in players[i + 1 :]:
            kind = draw(st.sampled_from(["white", "black", "white", "black", "forfeit", "double"]))
            if kind == "double":
                results.append(double_forfeit(white, black))
                continue
            if kind == "forfeit":
                loser = draw(st.sampled_from([white, black]))
                results.append(forfeit(white if loser == black else black, loser, length))
                continue
            winner, loser = (white, black) if kind == "white" else (black, white)
            score = (draw(st.integers(length, length + 3)), draw(st.integers(0, length - 1)))
            results.append(win(winner, loser, score))
    return list(players), results, rules


@settings(max_examples=150, deadline=None)
@given(round_robins(), st.integers(0, 2**32), st.randoms(use_true_random=False))
def test_standings_properties(
    group: tuple[list[PlayerId], list[Result], GroupRules], seed: int, rnd: random.Random
) -> None:
    players, results, rules = group
    table = group_standings(players, results, rules, lot_seed=seed)
    assert sorted(table.order) == sorted(players)
    assert [r.rank for r in table.rows] == list(range(1, len(players) + 1))
    counted = [r for r in table.rows if not r.removed]
    assert all(a.won >= b.won for a, b in itertools.pairwise(counted))
    assert all(r.removed for r in table.rows[len(counted) :])
    # A note for every adjacent pair level on match points, and only for those.
    level = [(a.player, b.player) for a, b in itertools.pairwise(counted) if a.won == b.won]
    assert [(n.above, n.below) for n in table.notes] == level
    assert all(isinstance(n, TiebreakNote) for n in table.notes)
    if "extra_game" not in rules.tiebreaks:
        assert table.extra_games == ()
    for needed in table.extra_games:
        assert isinstance(needed, ExtraGameNeeded)
        assert min(table.order.index(p) for p in needed.players) < rules.qualifiers
    shuffled = list(results)
    rnd.shuffle(shuffled)
    assert group_standings(players, shuffled, rules, lot_seed=seed) == table
    # Only removed players (never ordered by results) keep the order they were listed in.
    other = group_standings(list(reversed(players)), shuffled, rules, lot_seed=seed)
    assert other.rows[: len(counted)] == table.rows[: len(counted)]
    assert other.notes == table.notes


@pytest.mark.parametrize(
    "wrong",
    [
        win(ANA, ANA, (5, 0)),  # a player against themselves
        win(ANA, EVA, (5, 0)),  # a player from another group
        win(EVA, ANA, (5, 0)),
        Result(ANA, BOB, 5, 0, CARL),  # won by someone who did not play it
        Result(ANA, BOB, 5, 0, ANA, frozenset({CARL})),  # forfeited by someone else
    ],
)
def test_a_result_that_is_not_a_match_of_the_group_is_refused(wrong: Result) -> None:
    players = [ANA, BOB, CARL, DORA]
    with pytest.raises(ValueError):
        group_standings(players, [win(ANA, BOB, (5, 1)), wrong], NAV, lot_seed=1)
    with pytest.raises(ValueError):
        group_standings(
            players, [win(ANA, BOB, (5, 1))], NAV, lot_seed=1, extra_game_results=[wrong]
        )
