"""Ranking points per tournament and the season, all-time and novice tables."""

from collections import defaultdict
from decimal import Decimal
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.model import PlayerId
from tournament.preset import load_preset
from tournament.ranking import (
    Performance,
    RankingRow,
    TournamentRecord,
    all_time_table,
    default_game,
    for_game,
    novice_table,
    place_points,
    prize_threshold,
    season_table,
    seed_ranking,
    tournament_points,
)

HGV = load_preset("hgv-backgammon")
RULES = HGV.ranking
SEASON = HGV.season
PARTICIPATION = Decimal(str(RULES.participation))
PER_WIN = Decimal(str(RULES.per_match_won))
LAST_CHANCE = Decimal(str(RULES.consolation_finalist))


def perf(
    place: int | None,
    group_wins: int = 0,
    knockout_wins: int = 0,
    *,
    consolation_finalist: bool = False,
    knockout_forfeit: bool = False,
    consolation_wins: int = 0,
) -> Performance:
    return Performance(
        player=1,
        place=place,
        group_wins=group_wins,
        knockout_wins=knockout_wins,
        consolation_finalist=consolation_finalist,
        knockout_forfeit=knockout_forfeit,
        consolation_wins=consolation_wins,
    )


def record(
    name: str,
    points: dict[PlayerId, str],
    *,
    champion: PlayerId | None = None,
    finalists: tuple[PlayerId, ...] = (),
    official: bool = True,
    novices: frozenset[PlayerId] = frozenset(),
) -> TournamentRecord:
    return TournamentRecord(
        tournament=name,
        official=official,
        points={player: Decimal(value) for player, value in points.items()},
        champion=champion,
        finalists=finalists,
        novices=novices,
    )


def listing(rows: tuple[RankingRow, ...]) -> list[tuple[int, PlayerId, Decimal]]:
    return [(row.rank, row.player, row.points) for row in rows]


# --- HGV-7.5: points of one tournament -------------------------------------------------


def test_champion_with_five_wins_earns_2_30_HGV_7_5() -> None:
    points = tournament_points(RULES, perf(1, group_wins=2, knockout_wins=3))
    assert points == Decimal("2.30")
    assert str(points) == "2.30"


@pytest.mark.parametrize(
    ("place", "group_wins", "knockout_wins", "expected"),
    [
        (2, 2, 4, "1.34"),  # EL MANU, finalist with 6 wins
        (3, 2, 1, "0.72"),  # JUAN CARLOS, 3rd with 3 wins
        (27, 0, 0, "0.18"),  # LA TUQUI, 17th-32nd without a win
        (32, 0, 0, "0.18"),  # the last place of the band
    ],
)
def test_the_seeds_published_table_HGV_7_5(
    place: int, group_wins: int, knockout_wins: int, expected: str
) -> None:
    assert tournament_points(RULES, perf(place, group_wins, knockout_wins)) == Decimal(expected)


def test_wins_count_the_same_in_every_stage_HGV_7_5() -> None:
    group_only = tournament_points(RULES, perf(5, group_wins=3))
    knockout_only = tournament_points(RULES, perf(5, knockout_wins=3))
    assert group_only == knockout_only == place_points(RULES, 5) + PARTICIPATION + 3 * PER_WIN


def test_a_player_who_only_took_part_earns_participation_HGV_7_5() -> None:
    assert tournament_points(RULES, perf(None)) == PARTICIPATION
    beyond_the_table = RULES.places[-1].last + 1
    assert tournament_points(RULES, perf(beyond_the_table)) == PARTICIPATION


def test_place_points_follow_the_preset_bands_HGV_7_5() -> None:
    for band in RULES.places:
        for place in (band.first, band.last):
            assert place_points(RULES, place) == Decimal(str(band.points))
    assert place_points(RULES, 3) == place_points(RULES, 4)  # both semi-final losers
    assert place_points(RULES, None) == Decimal(0)
    assert place_points(RULES, RULES.places[-1].last + 1) == Decimal(0)
    with pytest.raises(ValueError):
        place_points(RULES, 0)


def test_knockout_forfeit_keeps_only_group_stage_points_HGV_2_3_8() -> None:
    forfeiter = perf(3, group_wins=2, knockout_wins=2, knockout_forfeit=True)
    assert tournament_points(RULES, forfeiter) == PARTICIPATION + 2 * PER_WIN


def test_knockout_forfeit_deduction_can_be_switched_off_HGV_2_3_8() -> None:
    lenient = load_preset(
        "hgv-backgammon", {"ranking.knockout_forfeit_loses_knockout_points": "false"}
    ).ranking
    forfeiter = perf(3, group_wins=2, knockout_wins=1, knockout_forfeit=True)
    assert tournament_points(lenient, forfeiter) == Decimal("0.72")
    assert tournament_points(RULES, forfeiter) == PARTICIPATION + 2 * PER_WIN


def test_last_chance_finalist_earns_its_bonus_and_wins_HGV_7_4_13() -> None:
    finalist = perf(None, group_wins=1, consolation_finalist=True, consolation_wins=2)
    assert tournament_points(RULES, finalist) == PARTICIPATION + LAST_CHANCE + 3 * PER_WIN
    assert tournament_points(RULES, finalist) == Decimal("0.37")


def test_negative_win_counts_are_refused_HGV_7_5() -> None:
    with pytest.raises(ValueError):
        tournament_points(RULES, perf(1, group_wins=-1))


# --- HGV-8: the season and all-time tables ---------------------------------------------


def test_season_tie_goes_to_most_tournaments_won_HGV_8() -> None:
    records = [
        record("jan", {1: "2.30", 2: "1.34", 3: "0.18"}, champion=1, finalists=(1, 2)),
        record("feb", {1: "0.18", 2: "1.14", 3: "0.50"}, champion=3, finalists=(3, 2)),
    ]
    table = season_table(records, SEASON)
    # 1 and 2 both have 2.48: 1 won a tournament, 2 won none despite two finals.
    assert listing(table) == [
        (1, 1, Decimal("2.48")),
        (2, 2, Decimal("2.48")),
        (3, 3, Decimal("0.68")),
    ]
    assert [(row.tournaments_won, row.finals_played) for row in table] == [(1, 1), (0, 2), (1, 1)]


def test_season_tie_then_goes_to_most_finals_played_HGV_8() -> None:
    records = [
        record("jan", {1: "0.60", 2: "1.10", 3: "2.10"}, champion=3, finalists=(3, 2)),
        record("feb", {1: "1.00", 2: "0.50", 3: "0.20", 4: "2.00"}, champion=4, finalists=(4, 3)),
    ]
    # 1 and 2 both have 1.60 and no title; 2 played a final.
    assert listing(season_table(records, SEASON)) == [
        (1, 3, Decimal("2.30")),
        (2, 4, Decimal("2.00")),
        (3, 2, Decimal("1.60")),
        (4, 1, Decimal("1.60")),
    ]


def test_season_tiebreaks_in_the_preset_order_HGV_8() -> None:
    records = [
        record("jan", {1: "2.00", 2: "1.00"}, champion=1, finalists=(1, 2)),
        record("feb", {2: "1.00", 3: "2.00"}, champion=3, finalists=(3, 2)),
        record("mar", {1: "0.50", 2: "0.50", 4: "3.00", 5: "0.10"}, champion=4, finalists=(4, 5)),
    ]
    # 1: 2.50, won 1, one final; 2: 2.50, won 0, two finals.
    assert SEASON.tiebreaks == ("tournaments_won", "finals_played")
    assert [row.player for row in season_table(records, SEASON)][:3] == [4, 1, 2]
    finals_first = load_preset(
        "hgv-backgammon", {"season.tiebreaks": "finals_played,tournaments_won"}
    ).season
    assert [row.player for row in season_table(records, finals_first)][:3] == [4, 2, 1]


def test_season_full_tie_shares_the_rank_HGV_8() -> None:
    records = [
        record("jan", {4: "0.50", 3: "0.50", 2: "0.50", 1: "2.00", 5: "0.10"}, champion=1),
    ]
    assert [(row.rank, row.player) for row in season_table(records, SEASON)] == [
        (1, 1),
        (2, 2),
        (2, 3),
        (2, 4),
        (5, 5),
    ]


def test_prize_needs_six_of_ten_official_tournaments_HGV_8() -> None:
    assert (SEASON.official_tournaments, SEASON.prize_attendance) == (10, 0.6)
    assert prize_threshold(SEASON) == 6  # 0.6 * 10 in floats would round up to 7
    regular = prize_threshold(SEASON)
    records = [record(f"m{i}", {1: "0.10", 2: "0.10"}) for i in range(regular - 1)]
    records.append(record("last", {1: "0.10"}))
    records.append(record("summer", {2: "0.10"}, official=False))
    rows = {row.player: row for row in season_table(records, SEASON)}
    assert (rows[1].tournaments, rows[1].prize_eligible) == (regular, True)
    assert (rows[2].tournaments, rows[2].prize_eligible) == (regular - 1, False)


def test_friendly_tournaments_do_not_count_HGV_8() -> None:
    records = [
        record("jan", {1: "0.50", 2: "0.30"}, champion=1, finalists=(1, 2)),
        record("summer", {2: "2.30", 3: "1.34"}, champion=2, finalists=(2, 3), official=False),
    ]
    table = season_table(records, SEASON)
    assert listing(table) == [(1, 1, Decimal("0.50")), (2, 2, Decimal("0.30"))]
    assert table[1].tournaments_won == 0
    assert listing(all_time_table(records)) == listing(table)


def test_season_table_lists_the_given_players_HGV_8() -> None:
    records = [record("jan", {1: "0.50", 2: "0.30", 3: "0.20"})]
    table = season_table(records, SEASON, players=[3, 9, 1])
    assert listing(table) == [(1, 1, Decimal("0.50")), (2, 3, Decimal("0.20")), (3, 9, 0)]
    assert table[2].tournaments == 0


def test_all_time_table_sums_every_official_tournament_HGV_8() -> None:
    last_season = [record(f"a{i}", {1: "1.00", 2: "0.40"}, champion=1) for i in range(3)]
    this_season = [record("b", {2: "2.30", 3: "1.34"}, champion=2, finalists=(2, 3))]
    friendly = [record("summer", {3: "9.00"}, official=False)]
    table = all_time_table(last_season + this_season + friendly)
    assert listing(table) == [
        (1, 2, Decimal("3.50")),
        (2, 1, Decimal("3.00")),
        (3, 3, Decimal("1.34")),
    ]
    assert [(row.tournaments, row.tournaments_won) for row in table] == [(4, 1), (3, 3), (1, 0)]
    assert not any(row.prize_eligible for row in table)


# --- HGV-NOVICE -------------------------------------------------------------------------


def test_novice_table_counts_only_novice_events_HGV_NOVICE() -> None:
    assert SEASON.novice_category
    records = [
        record("jan", {1: "2.30", 5: "0.50", 6: "0.30"}, champion=1, novices=frozenset({5, 6})),
        record("feb", {1: "0.30", 5: "1.00", 6: "0.25"}, novices=frozenset({6})),
        record("summer", {6: "5.00"}, official=False, novices=frozenset({6})),
    ]
    table = novice_table(records, SEASON)
    assert listing(table) == [(1, 6, Decimal("0.55")), (2, 5, Decimal("0.50"))]
    assert [row.tournaments for row in table] == [2, 1]


def test_no_novice_table_without_the_category_HGV_NOVICE() -> None:
    navodari = load_preset("navodari-table").season
    assert not navodari.novice_category
    records = [record("jan", {5: "0.50"}, novices=frozenset({5}))]
    assert novice_table(records, navodari) == ()


# --- HGV-8: the ranking seeds the next draw --------------------------------------------


def test_seed_ranking_adds_imported_points_to_the_season_HGV_8() -> None:
    imported = [(1, Decimal("3.00")), (2, Decimal("1.00")), (3, Decimal("1.00")), (6, Decimal(1))]
    records = [record("jan", {3: "0.50", 4: "2.00", 5: "1.00", 7: "1.00"})]
    rows = season_table(records, SEASON)
    # totals: 1 3.00, 4 2.00, 3 1.50, then 2, 6 (imported order), 5, 7 (table order).
    assert seed_ranking(rows, imported) == (1, 4, 3, 2, 6, 5, 7)


def test_seed_ranking_without_imports_is_the_season_order_HGV_8() -> None:
    records = [record("jan", {3: "0.50", 4: "2.00", 5: "1.00"})]
    assert seed_ranking(season_table(records, SEASON)) == (4, 5, 3)


def test_seed_ranking_refuses_a_player_imported_twice_HGV_8() -> None:
    with pytest.raises(ValueError):
        seed_ranking((), [(1, Decimal(1)), (1, Decimal(2))])


# --- properties -----------------------------------------------------------------------

_points = st.integers(min_value=0, max_value=300).map(lambda cents: Decimal(cents) / 100)


@st.composite
def _records(draw: st.DrawFn) -> list[TournamentRecord]:
    records: list[TournamentRecord] = []
    for index in range(draw(st.integers(min_value=0, max_value=6))):
        played = draw(st.dictionaries(st.integers(1, 10), _points, min_size=2, max_size=8))
        finalists = tuple(draw(st.permutations(sorted(played)))[:2])
        records.append(
            TournamentRecord(
                tournament=f"t{index}",
                official=draw(st.booleans()),
                points=played,
                champion=finalists[0],
                finalists=finalists,
            )
        )
    return records


@settings(max_examples=150, deadline=None)
@given(_records())
def test_season_table_ranks_every_player_once_by_points_HGV_8(
    records: list[TournamentRecord],
) -> None:
    totals: dict[PlayerId, Decimal] = defaultdict(Decimal)
    for rec in records:
        if rec.official:
            for player, points in rec.points.items():
                totals[player] += points
    table = season_table(records, SEASON)
    assert sorted(row.player for row in table) == sorted(totals)
    assert {row.player: row.points for row in table} == totals
    assert all(a.points >= b.points for a, b in pairwise(table))
    for position, row in enumerate(table, start=1):
        assert row.rank <= position
        if position == 1 or row.rank != table[position - 2].rank:
            assert row.rank == position


# --- HGV-8: points carried over from before the bot, one table per game ----------------


def test_carried_points_are_the_season_so_far_HGV_8() -> None:
    """An imported ranking counts in the season table, shown apart, and ranks newcomers."""
    played = [record("March", {1: "2.30", 2: "1.10"}, champion=1, finalists=(1, 2))]
    table = season_table(played, SEASON, carried={2: Decimal("6.40"), 3: Decimal("0.50")})
    assert [(r.rank, r.player, r.points, r.carried, r.tournaments) for r in table] == [
        (1, 2, Decimal("7.50"), Decimal("6.40"), 1),
        (2, 1, Decimal("2.30"), Decimal(0), 1),
        (3, 3, Decimal("0.50"), Decimal("0.50"), 0),
    ]


def test_each_game_has_its_own_table_HGV_8() -> None:
    backgammon = record("Cup", {1: "2"}, champion=1)
    draughts = TournamentRecord(
        tournament="Festival",
        official=True,
        points={2: Decimal(3)},
        champion=2,
        finalists=(2,),
        game="draughts",
    )
    assert [
        r.player for r in season_table(for_game([backgammon, draughts], "draughts"), SEASON)
    ] == [2]
    assert [r.player for r in all_time_table(for_game([backgammon, draughts], "backgammon"))] == [
        1
    ]


def test_the_default_game_is_the_only_one_else_backgammon_HGV_8() -> None:
    assert default_game(["draughts", "draughts"]) == "draughts"
    assert default_game(["draughts", "backgammon"]) == "backgammon"
    assert default_game([]) == "backgammon"
