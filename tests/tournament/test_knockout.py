"""Knockout brackets: seeding, play-in, crossover, third place, consolation, forfeits.

One file (over 500 lines, issue 18): it mirrors tournament/knockout.py rule by rule, so a
rule and its tests are found in the same order.
"""

import dataclasses
import random
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.knockout import (
    Bracket,
    BracketMatch,
    advance,
    build_bracket,
    build_consolation,
    knockout_seeds,
    ready_matches,
    replace_forfeiter,
    round_name,
    seed_positions,
)
from tournament.model import PlayerId, Refused, Stage
from tournament.placements import (
    champion,
    finalists,
    is_finished,
    placements,
)
from tournament.preset import KnockoutRules, load_preset

Groups = list[list[PlayerId]]


def make_groups(counts: Sequence[int]) -> Groups:
    """Group g's qualifiers are 100*g + place (place 1 = group winner)."""
    return [
        [100 * g + place for place in range(1, count + 1)] for g, count in enumerate(counts, 1)
    ]


def round_robin_pairs(groups: Groups) -> set[frozenset[PlayerId]]:
    return {frozenset((a, b)) for group in groups for a in group for b in group if a < b}


def group_of(player: PlayerId) -> int:
    return player // 100


def matches_of(bracket: Bracket) -> dict[str, BracketMatch]:
    return {m.key: m for m in bracket.matches}


def first_round_slots(bracket: Bracket) -> list[PlayerId]:
    """Play-in sides plus the players who enter the main bracket directly."""
    return [p for m in bracket.matches for p in (m.white, m.black) if p is not None]


def first_round_pairs(bracket: Bracket) -> list[BracketMatch]:
    return [m for m in bracket.matches if m.white is not None and m.black is not None]


def play_out(
    bracket: Bracket,
    pick: random.Random | None = None,
    decided: dict[str, PlayerId] | None = None,
) -> tuple[Bracket, dict[str, PlayerId]]:
    """Decide every match (white wins unless a Random is given) round by round."""
    winners = dict(decided or {})
    for _ in range(len(bracket.matches) + 1):  # each pass decides at least one match
        ready = ready_matches(bracket, winners)
        if not ready:
            break
        for m in ready:
            assert m.key not in winners
            assert m.white is not None and m.black is not None
            winners[m.key] = pick.choice((m.white, m.black)) if pick else m.white
        bracket = advance(bracket, winners)
    return bracket, winners


def pairs(bracket: Bracket, round_name_: str) -> list[tuple[PlayerId | None, PlayerId | None]]:
    return [(m.white, m.black) for m in bracket.matches if m.round_name == round_name_]


def places_by_player(bracket: Bracket, winners: dict[str, PlayerId]) -> dict[PlayerId, int]:
    result = placements(bracket, winners)
    assert len({p for _, p in result}) == len(result)
    return {player: place for place, player in result}


# --- seeds and layout -------------------------------------------------------------------


def test_seeds_are_winners_then_runners_up_then_thirds_HGV_7_3_1() -> None:
    groups = make_groups([3, 3, 2])
    assert knockout_seeds(groups) == (101, 201, 301, 102, 202, 302, 103, 203)


def test_seed_positions_keep_seeds_one_and_two_apart_until_the_final() -> None:
    assert seed_positions(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    positions = seed_positions(32)
    assert positions.index(1) < 16 <= positions.index(2)
    # Quarters of the draw: 1 and 4 share the top half (semi 1-4), 2 and 3 the bottom.
    assert [positions.index(seed) // 8 for seed in (1, 4, 2, 3)] == [0, 1, 2, 3]


def test_round_names_by_players_entering() -> None:
    names = [round_name(n) for n in (2, 4, 8, 16, 32, 64)]
    assert names == ["final", "semi_final", "quarter_final", "last_16", "last_32", "last_64"]


def test_39_qualifiers_play_in_then_bracket_of_32_HGV_7_3_1() -> None:
    preset = load_preset("hgv-backgammon", {"knockout.avoid_group_rematch": "false"})
    rules = preset.knockout
    groups = make_groups([preset.groups.qualifiers] * 13)  # 39 players, groups of 3
    bracket = build_bracket(groups, round_robin_pairs(groups), rules)
    seeds = bracket.seeds
    assert len(seeds) == 39
    play_ins = pairs(bracket, "play_in")
    # Seed s plays seed 65 - s; listed by the bracket position of the slot they fill.
    assert play_ins == [(seeds[s - 1], seeds[64 - s]) for s in (32, 29, 28, 31, 26, 30, 27)]
    counts = Counter(m.round_name for m in bracket.matches)
    assert counts == {
        "play_in": 7,
        "last_32": 16,
        "last_16": 8,
        "quarter_final": 4,
        "semi_final": 2,
        "final": 1,
    }
    by_key = matches_of(bracket)
    top = by_key["KO-R2-1"]
    assert (top.white, top.black, top.black_from) == (seeds[0], None, "KO-R1-1")
    lengths = {m.round_name: m.length for m in bracket.matches}
    assert lengths == {
        "play_in": rules.match_length,
        "last_32": rules.match_length,
        "last_16": rules.match_length,
        "quarter_final": rules.match_length,
        "semi_final": rules.semi_final_length,
        "final": rules.final_length,
    }
    assert (lengths["play_in"], lengths["semi_final"], lengths["final"]) == (5, 7, 7)
    direct = [p for m in bracket.matches if m.round == 2 for p in (m.white, m.black) if p]
    assert sorted(direct) == sorted(seeds[:25])
    assert all(m.stage is Stage.KNOCKOUT for m in bracket.matches)


def test_hgv_39_qualifiers_meet_no_group_mate_in_the_first_round_HGV_7_3_1() -> None:
    preset = load_preset("hgv-backgammon")
    groups = make_groups([preset.groups.qualifiers] * 13)
    bracket = build_bracket(groups, round_robin_pairs(groups), preset.knockout)
    first = first_round_pairs(bracket)
    assert len(first) == 7 + 9  # play-ins, and main pairs of two direct entries
    assert all(group_of(m.white or 0) != group_of(m.black or 0) for m in first)
    assert sorted(bracket.seeds) == sorted(knockout_seeds(groups))
    # Seed 10 (winner of group 10) would meet seed 23 (its runner-up): 23 trades places
    # with 24, the nearest weaker lower seed. Play-in 26 v 39 (group 13's second and
    # third) trades with the only neighbouring pair, 27 v 38.
    swapped = {(1001, 1102), (901, 1002), (1302, 1203), (103, 1303)}
    assert swapped <= {(m.white, m.black) for m in first}
    assert bracket.seeds[22:24] == (1102, 1002)
    # Without the switch the bracket has group rematches (26 v 39 are both group 13).
    plain = build_bracket(
        groups, set(), dataclasses.replace(preset.knockout, avoid_group_rematch=False)
    )
    assert any(group_of(m.white or 0) == group_of(m.black or 0) for m in plain.matches)


def test_a_group_of_three_alone_cannot_avoid_a_rematch() -> None:
    rules = load_preset("hgv-backgammon").knockout
    bracket = build_bracket([[1, 2, 3]], set(), rules)
    assert pairs(bracket, "play_in") == [(2, 3)]
    assert pairs(bracket, "final") == [(1, None)]


# --- crossover, lengths, third place (Navodari) -----------------------------------------


def test_two_groups_crossover_semis_to_5_final_to_7_third_place_NAV_II_NAV_V_NAV_IV() -> None:
    rules = load_preset("navodari-table").knockout
    a1, a2, b1, b2 = 101, 102, 201, 202
    bracket = build_bracket([[a1, a2], [b1, b2]], set(), rules)
    by_key = matches_of(bracket)
    semi1, semi2, final, third = (by_key[k] for k in ("KO-R1-1", "KO-R1-2", "KO-R2-1", "KO-3RD"))
    assert [(semi1.white, semi1.black), (semi2.white, semi2.black)] == [(a1, b2), (b1, a2)]
    assert (semi1.round_name, semi1.length) == ("semi_final", rules.semi_final_length)
    assert (final.round_name, final.length) == ("final", rules.final_length)
    assert (final.white_from, final.black_from) == ("KO-R1-1", "KO-R1-2")
    assert (third.stage, third.round_name, third.length) == (
        Stage.THIRD_PLACE,
        "third_place",
        rules.third_place_length,
    )
    assert (semi1.length, final.length, third.length) == (5, 7, 7)
    winners = {"KO-R1-1": a1, "KO-R1-2": b1}
    filled = matches_of(advance(bracket, winners))
    assert (filled["KO-R2-1"].white, filled["KO-R2-1"].black) == (a1, b1)
    assert (filled["KO-3RD"].white, filled["KO-3RD"].black) == (b2, a2)
    winners |= {"KO-R2-1": b1, "KO-3RD": a2}
    assert placements(bracket, winners) == ((1, b1), (2, a1), (3, a2), (4, b2))
    assert is_finished(bracket, winners)
    assert champion(bracket, winners) == b1


def test_four_groups_crossover_quarter_finals_NAV_II() -> None:
    rules = load_preset("navodari-table").knockout
    groups = make_groups([2, 2, 2, 2])
    bracket = build_bracket(groups, round_robin_pairs(groups), rules)
    quarters = pairs(bracket, "quarter_final")
    a1, a2, b1, b2, c1, c2, d1, d2 = 101, 102, 201, 202, 301, 302, 401, 402
    assert set(quarters) == {(a1, b2), (b1, a2), (c1, d2), (d1, c2)}
    halves = {p: i // 2 for i, pair in enumerate(quarters) for p in pair}
    assert halves[a1] != halves[b1]  # A1 and B1 meet at the earliest in the final
    assert halves[a1] != halves[a2]
    assert all(m.length == rules.match_length for m in bracket.matches if m.round == 1)


@pytest.mark.parametrize("count", [8, 16])
def test_crossover_pits_each_winner_against_the_partner_group_runner_up_NAV_II(
    count: int,
) -> None:
    rules = load_preset("navodari-table").knockout
    bracket = build_bracket(make_groups([2] * count), set(), rules)
    first = pairs(bracket, round_name(2 * count))
    partner = {g: g + 1 if g % 2 else g - 1 for g in range(1, count + 1)}
    assert sorted(first) == sorted((100 * g + 1, 100 * partner[g] + 2) for g in partner)
    top_half = {p for pair in first[: count // 2] for p in pair}
    assert 101 in top_half and 201 not in top_half


@pytest.mark.parametrize("counts", [[2, 2, 2], [3, 3], [2, 2, 2, 1]])
def test_crossover_falls_back_to_seeded_pairing_NAV_II(counts: list[int]) -> None:
    crossover = load_preset("navodari-table").knockout
    seeded = dataclasses.replace(crossover, pairing="seeded")
    groups = make_groups(counts)
    played = round_robin_pairs(groups)
    assert build_bracket(groups, played, crossover) == build_bracket(groups, played, seeded)


def test_no_third_place_match_without_semi_finals_NAV_IV() -> None:
    rules = load_preset("navodari-table").knockout
    bracket = build_bracket([[1], [2], [3]], set(), rules)
    assert [m.round_name for m in bracket.matches] == ["play_in", "final"]


# --- draughts ---------------------------------------------------------------------------


def test_draughts_last_eight_play_a_knockout_WAR_V() -> None:
    preset = load_preset("warcaby-100")
    size, qualifiers = preset.groups.size, preset.groups.qualifiers
    entrants = list(range(1, 17))
    groups = [entrants[i : i + size] for i in range(0, len(entrants), size)]
    standings = [group[:qualifiers] for group in groups]
    played = round_robin_pairs(groups)
    bracket = build_bracket(standings, played, preset.knockout)
    assert len(bracket.seeds) == 8
    quarters = [m for m in bracket.matches if m.round == 1]
    assert [m.round_name for m in quarters] == ["quarter_final"] * 4
    assert all(frozenset((m.white, m.black)) not in played for m in quarters)
    assert {m.length for m in bracket.matches} == {preset.knockout.match_length}
    assert "KO-3RD" in matches_of(bracket)  # three cups for the best three
    final_bracket, winners = play_out(bracket)
    assert Counter(place for place, _ in placements(final_bracket, winners)) == {
        1: 1,
        2: 1,
        3: 1,
        4: 1,
        5: 4,
    }


# --- placements -------------------------------------------------------------------------


def test_placements_with_a_third_place_match_NAV_IV() -> None:
    rules = load_preset("navodari-table").knockout
    bracket, winners = play_out(build_bracket(make_groups([2, 2, 2, 2]), set(), rules))
    result = placements(bracket, winners)
    assert [place for place, _ in result] == [1, 2, 3, 4, 5, 5, 5, 5]
    assert is_finished(bracket, winners)
    third = matches_of(bracket)["KO-3RD"]
    assert result[2:4] == ((3, third.white), (4, third.black))


def test_placements_without_third_place_share_third_HGV_7_5() -> None:
    rules = load_preset("hgv-backgammon").knockout
    assert not rules.third_place
    bracket, winners = play_out(build_bracket(make_groups([2, 2, 2, 2]), set(), rules))
    assert [place for place, _ in placements(bracket, winners)] == [1, 2, 3, 3, 5, 5, 5, 5]


def test_placements_of_39_qualifiers_share_places_by_round_HGV_7_3_1() -> None:
    rules = load_preset("hgv-backgammon").knockout
    groups = make_groups([3] * 13)
    bracket, winners = play_out(build_bracket(groups, round_robin_pairs(groups), rules))
    counts = Counter(place for place, _ in placements(bracket, winners))
    assert counts == {1: 1, 2: 1, 3: 2, 5: 4, 9: 8, 17: 16, 33: 7}


def test_only_decided_matches_place_players() -> None:
    rules = load_preset("navodari-table").knockout
    bracket = build_bracket(make_groups([2, 2, 2, 2]), set(), rules)
    winners = {m.key: m.white for m in ready_matches(bracket, {}) if m.white}
    assert [place for place, _ in placements(bracket, winners)] == [5, 5, 5, 5]
    assert not is_finished(bracket, winners)
    assert champion(bracket, winners) is None
    semis = ready_matches(bracket, winners)
    winners |= {m.key: m.white for m in semis if m.white}
    # The semi-final losers wait for the third-place match: no place yet.
    assert [place for place, _ in placements(bracket, winners)] == [5, 5, 5, 5]


def test_one_or_no_qualifier_has_no_match() -> None:
    rules = load_preset("hgv-backgammon").knockout
    alone = build_bracket([[7]], set(), rules)
    assert alone.matches == ()
    assert (placements(alone, {}), champion(alone, {}), is_finished(alone, {})) == (
        ((1, 7),),
        7,
        True,
    )
    empty = build_bracket([], set(), rules)
    assert (empty.matches, placements(empty, {}), champion(empty, {})) == ((), (), None)


def test_three_qualifiers_play_in_loser_is_third() -> None:
    rules = load_preset("hgv-backgammon").knockout
    bracket, winners = play_out(build_bracket([[1], [2], [3]], set(), rules))
    assert placements(bracket, winners) == ((1, 1), (2, 2), (3, 3))


# --- advance ----------------------------------------------------------------------------


def test_advance_refuses_a_winner_who_is_not_in_the_match() -> None:
    rules = load_preset("hgv-backgammon").knockout
    bracket = build_bracket(make_groups([2, 2]), set(), rules)
    with pytest.raises(Refused) as caught:
        advance(bracket, {"KO-R1-1": 999})
    assert caught.value.code == "bracket_winner_not_in_match"


def test_advance_ignores_other_brackets_and_returns_the_same_value_when_nothing_changed() -> None:
    rules = load_preset("hgv-backgammon").knockout
    bracket = build_bracket(make_groups([2, 2]), set(), rules)
    winners = {"LC-R1-1": 5, "KO-R1-1": 101}
    once = advance(bracket, winners)
    assert advance(once, dict(winners)) is once
    assert matches_of(once)["KO-R2-1"].white == 101
    # A bracket rebuilt by hand (no remembered progress) advances the same way.
    rebuilt = Bracket(bracket.stage, bracket.seeds, bracket.matches)
    assert advance(rebuilt, winners) == once
    # A corrected result moves the other player up.
    assert matches_of(advance(once, {"KO-R1-1": 202}))["KO-R2-1"].white == 202
    assert matches_of(advance(once, {}))["KO-R2-1"].white is None


# --- HGV-2.3.8 --------------------------------------------------------------------------


def test_forfeiter_replaced_by_the_player_they_eliminated_HGV_2_3_8() -> None:
    rules = load_preset("hgv-backgammon").knockout
    bracket = build_bracket(make_groups([2, 2, 2, 2]), set(), rules)
    first = ready_matches(bracket, {})
    winners = {m.key: m.white for m in first if m.white}
    quarter = matches_of(bracket)["KO-R1-1"]
    x, y = quarter.white, quarter.black
    assert x is not None and y is not None
    semi = next(m for m in ready_matches(bracket, winners) if x in (m.white, m.black))
    moved, replacement = replace_forfeiter(bracket, winners, semi.key, x)
    assert replacement == y
    semi_now = matches_of(moved)[semi.key]
    assert y in (semi_now.white, semi_now.black) and x not in (semi_now.white, semi_now.black)
    assert semi_now in ready_matches(moved, winners)
    done, all_winners = play_out(moved, decided=winners)
    assert done.substitutions == moved.substitutions
    places = places_by_player(done, all_winners)
    assert sorted(places) == sorted(moved.seeds)
    assert places[x] == 5  # the forfeiter takes the place of the player they had beaten
    assert places[y] == 1  # white wins every match in play_out


def test_a_stored_bracket_without_the_replacement_link_places_everyone_HGV_2_3_8() -> None:
    """Storage may keep a replacement as a fixed side with no feeding match."""
    rules = load_preset("navodari-table").knockout
    a1, a2, b1, b2 = 101, 102, 201, 202
    built = build_bracket([[a1, a2], [b1, b2]], set(), rules)
    winners = {"KO-R1-1": a1, "KO-R1-2": b1}
    final = matches_of(built)["KO-R2-1"]
    stored = Bracket(
        Stage.KNOCKOUT,
        (),
        tuple(
            dataclasses.replace(m, white=b2, white_from=None) if m is final else m
            for m in built.matches
        ),
    )
    third = matches_of(advance(stored, winners))["KO-3RD"]
    assert (third.white, third.black) == (a1, a2)  # the final forfeiter drops to 3RD
    winners |= {"KO-R2-1": b1, "KO-3RD": a1}
    assert placements(stored, winners) == ((1, b1), (2, b2), (3, a1), (4, a2))


def test_forfeit_in_a_first_match_leaves_the_bracket_HGV_2_3_8() -> None:
    rules = load_preset("hgv-backgammon").knockout
    bracket = build_bracket(make_groups([2, 2]), set(), rules)
    m = matches_of(bracket)["KO-R1-1"]
    assert m.white is not None
    assert replace_forfeiter(bracket, {}, "KO-R1-1", m.white) == (bracket, None)


def test_final_forfeiter_drops_to_the_third_place_match_HGV_2_3_8_NAV_IV() -> None:
    rules = load_preset("navodari-table").knockout
    a1, a2, b1, b2 = 101, 102, 201, 202
    bracket = build_bracket([[a1, a2], [b1, b2]], set(), rules)
    winners = {"KO-R1-1": a1, "KO-R1-2": b1}
    moved, replacement = replace_forfeiter(bracket, winners, "KO-R2-1", a1)
    assert replacement == b2
    by_key = matches_of(moved)
    assert (by_key["KO-R2-1"].white, by_key["KO-R2-1"].black) == (b2, b1)
    assert (by_key["KO-3RD"].white, by_key["KO-3RD"].black) == (a1, a2)
    winners |= {"KO-R2-1": b2, "KO-3RD": a2}
    assert placements(moved, winners) == ((1, b2), (2, b1), (3, a2), (4, a1))


def test_a_replacement_who_forfeits_gives_way_to_their_own_last_victim_HGV_2_3_8() -> None:
    rules = load_preset("hgv-backgammon").knockout
    bracket = build_bracket([[1], [2], [3], [4], [5], [6], [7], [8]], set(), rules)
    # 1 beats 8, 4 beats 5; then 4 beats 1 in the semi-final and forfeits the final.
    winners = {"KO-R1-1": 1, "KO-R1-2": 4, "KO-R1-3": 2, "KO-R1-4": 3, "KO-R2-1": 4}
    moved, replacement = replace_forfeiter(bracket, winners, "KO-R3-1", 4)
    assert replacement == 1
    moved, replacement = replace_forfeiter(moved, winners, "KO-R3-1", 1)
    assert replacement == 8  # 1 did not beat 4: their last win was over 8
    assert matches_of(moved)["KO-R3-1"].white == 8
    # 8 plays on in the final (no place yet); 4 and 1 leave at the semi-final.
    assert placements(moved, winners) == ((3, 1), (3, 4), (5, 5), (5, 6), (5, 7))


def test_replace_forfeiter_refuses_impossible_requests_HGV_2_3_8() -> None:
    rules = load_preset("hgv-backgammon").knockout
    bracket = build_bracket(make_groups([2, 2]), set(), rules)
    winners = {"KO-R1-1": 101}
    cases = [
        ("KO-R9-9", 101, "bracket_unknown_match"),
        ("KO-R1-1", 101, "bracket_match_decided"),
        ("KO-R1-2", 101, "bracket_player_not_in_match"),
    ]
    for key, player, code in cases:
        with pytest.raises(Refused) as caught:
            replace_forfeiter(bracket, winners, key, player)
        assert caught.value.code == code


# --- consolation ------------------------------------------------------------------------


def test_last_chance_among_non_qualifiers_and_its_finalists_HGV_7_4_13() -> None:
    rules = load_preset("hgv-backgammon").knockout
    assert rules.consolation
    players = [11, 12, 13, 14, 15, 16]
    bracket = build_consolation(players, {frozenset((13, 16))}, rules)
    assert bracket is not None
    assert bracket.stage is Stage.CONSOLATION
    assert all(m.key.startswith("LC-") and m.stage is Stage.CONSOLATION for m in bracket.matches)
    assert {m.length for m in bracket.matches} == {rules.consolation_length}
    assert [m.round_name for m in bracket.matches] == [
        "play_in",
        "play_in",
        "semi_final",
        "semi_final",
        "final",
    ]
    # Seeds 4 v 5 and 3 v 6 would play in, but 13 and 16 met in the group stage.
    assert sorted(first_round_slots(bracket)) == players
    assert pairs(bracket, "play_in") == [(14, 16), (13, 15)]
    assert pairs(bracket, "semi_final") == [(11, None), (12, None)]
    winners: dict[str, PlayerId] = {}
    assert finalists(bracket, winners) == ()
    bracket, winners = play_out(bracket)
    final = matches_of(bracket)["LC-R3-1"]
    assert finalists(bracket, winners) == (final.white, final.black) == (11, 12)


def test_last_chance_needs_two_players_and_the_switch_HGV_7_4_13() -> None:
    hgv = load_preset("hgv-backgammon").knockout
    assert build_consolation([1], set(), hgv) is None
    navodari = load_preset("navodari-table").knockout
    assert not navodari.consolation
    assert build_consolation([1, 2, 3], set(), navodari) is None
    with_third = dataclasses.replace(hgv, third_place=True)
    bracket = build_consolation([1, 2, 3, 4], set(), with_third)
    assert bracket is not None and "LC-3RD" not in matches_of(bracket)


def test_a_player_listed_twice_is_refused() -> None:
    rules = load_preset("hgv-backgammon").knockout
    with pytest.raises(Refused) as caught:
        build_bracket([[1, 2], [2, 3]], set(), rules)
    assert caught.value.code == "bracket_duplicate_player"


# --- properties -------------------------------------------------------------------------


@st.composite
def knockout_inputs(draw: st.DrawFn) -> tuple[Groups, KnockoutRules, int]:
    counts = draw(st.lists(st.integers(1, 4), min_size=1, max_size=64))
    base = load_preset(draw(st.sampled_from(["hgv-backgammon", "navodari-table"]))).knockout
    rules = dataclasses.replace(
        base,
        pairing=draw(st.sampled_from(["seeded", "crossover"])),
        avoid_group_rematch=draw(st.booleans()),
        third_place=draw(st.booleans()),
    )
    return make_groups(counts), rules, draw(st.integers(0, 2**32))


@settings(max_examples=150, deadline=None)
@given(knockout_inputs())
def test_every_qualifier_starts_once_and_every_side_has_a_path_HGV_7_3_1(
    inputs: tuple[Groups, KnockoutRules, int],
) -> None:
    groups, rules, _ = inputs
    bracket = build_bracket(groups, round_robin_pairs(groups), rules)
    qualifiers = sorted(p for group in groups for p in group)
    assert sorted(bracket.seeds) == qualifiers
    # A lone qualifier plays nobody: they are the champion without a match.
    assert sorted(first_round_slots(bracket)) == (qualifiers if len(qualifiers) > 1 else [])
    seen: set[str] = set()
    for m in bracket.matches:
        assert (m.white is None) == (m.white_from is not None)
        assert (m.black is None) == (m.black_from is not None)
        assert {m.white_from, m.black_from} - {None} <= seen  # fed by an earlier match
        seen.add(m.key)
    third = 1 if rules.third_place and len(qualifiers) >= 4 else 0
    assert len(bracket.matches) == len(qualifiers) - 1 + third


@settings(max_examples=150, deadline=None)
@given(knockout_inputs())
def test_playing_out_any_bracket_places_everyone_once_HGV_7_3_1_NAV_IV(
    inputs: tuple[Groups, KnockoutRules, int],
) -> None:
    groups, rules, seed = inputs
    bracket = build_bracket(groups, round_robin_pairs(groups), rules)
    bracket, winners = play_out(bracket, random.Random(seed))
    assert is_finished(bracket, winners)
    assert ready_matches(bracket, winners) == ()
    result = placements(bracket, winners)
    assert sorted(player for _, player in result) == sorted(p for g in groups for p in g)
    assert [place for place, _ in result].count(1) == 1
    assert result[0] == (1, champion(bracket, winners))
    assert [place for place, _ in result] == sorted(place for place, _ in result)


def rematches(bracket: Bracket) -> list[BracketMatch]:
    return [
        m for m in first_round_pairs(bracket) if group_of(m.white or 0) == group_of(m.black or 0)
    ]


@settings(max_examples=150, deadline=None)
@given(knockout_inputs())
def test_a_first_round_rematch_remains_only_when_no_swap_avoids_it(
    inputs: tuple[Groups, KnockoutRules, int],
) -> None:
    groups, rules, _ = inputs
    rules = dataclasses.replace(rules, avoid_group_rematch=True)
    bracket = build_bracket(groups, round_robin_pairs(groups), rules)
    first = first_round_pairs(bracket)
    for m in rematches(bracket):
        # Pools: play-ins swap among play-ins, direct pairs among direct pairs.
        pool = [o for o in first if o.round_name == m.round_name and o is not m]
        for other in pool:
            assert m.white is not None and other.white is not None and other.black is not None
            assert group_of(m.white) == group_of(other.black) or group_of(other.white) == group_of(
                m.black or 0
            )


@settings(max_examples=100, deadline=None)
@given(st.integers(2, 64), st.integers(1, 4), st.sampled_from(["seeded", "crossover"]))
def test_many_groups_meet_no_group_mate_in_the_first_round(
    group_count: int, qualifiers: int, pairing: str
) -> None:
    rules = dataclasses.replace(load_preset("hgv-backgammon").knockout, pairing=pairing)
    groups = make_groups([qualifiers] * group_count)
    bracket = build_bracket(groups, round_robin_pairs(groups), rules)
    assert rematches(bracket) == []


def test_four_thousand_qualifiers_play_out_HGV_7_3_1() -> None:
    # Speed is measured in bench/core.py, never asserted here.
    rules = load_preset("hgv-backgammon").knockout
    groups = make_groups([3] * 1366)  # 4,098 players in groups of 3, all qualify
    bracket, winners = play_out(build_bracket(groups, set(), rules), random.Random(1))
    assert is_finished(bracket, winners)
    assert len(bracket.matches) == 4097
