"""Match scores: final-score checks, game values, Crawford, draughts tiebreaks."""

from __future__ import annotations

from typing import get_args

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.preset import Preset, load_preset
from tournament.scoring import (
    FinalScore,
    GameByGame,
    GameKind,
    GameRecord,
    ScoreError,
    Side,
    add_game,
    check_final_score,
    draughts_game_points,
    draughts_points_of_games,
    from_reporter,
    game_value,
    max_game_value,
)

HGV = load_preset("hgv-backgammon")
NAV = load_preset("navodari-table")
WAR = load_preset("warcaby-100")


def check(
    preset: Preset,
    length: int,
    score: FinalScore,
    *,
    knockout: bool = False,
    floor: tuple[int, int] = (0, 0),
) -> FinalScore:
    rules, game = preset.scoring, preset.game
    return check_final_score(rules, game, length, score, knockout=knockout, floor=floor)


def refusal(
    preset: Preset,
    length: int,
    score: FinalScore,
    *,
    knockout: bool = False,
    floor: tuple[int, int] = (0, 0),
) -> ScoreError:
    with pytest.raises(ScoreError) as caught:
        check(preset, length, score, knockout=knockout, floor=floor)
    return caught.value


def play(preset: Preset, match: GameByGame, *games: GameRecord) -> GameByGame:
    for record in games:
        match = add_game(preset.scoring, match, record)
    return match


# --- HGV-5.3: a match is won on reaching its length; over-length scores are kept ---


@pytest.mark.parametrize(
    ("white", "black", "winner"),
    [(3, 1, "white"), (4, 2, "white"), (2, 3, "black"), (3, 0, "white"), (1, 5, "black")],
)
def test_three_point_group_match_final_scores_HGV_5_3(white: int, black: int, winner: str) -> None:
    length = HGV.groups.match_length
    score = FinalScore(white, black)
    assert check(HGV, length, score) == score
    assert score.winner_side == winner


@pytest.mark.parametrize(
    ("white", "black", "code"),
    [
        (3, 3, "both_reached_length"),
        (2, 1, "nobody_reached_length"),
        (0, 0, "nobody_reached_length"),
        (-1, 3, "negative"),
        (3, -2, "negative"),
    ],
)
def test_impossible_three_point_scores_refused_HGV_5_3(white: int, black: int, code: str) -> None:
    error = refusal(HGV, HGV.groups.match_length, FinalScore(white, black))
    assert error.code == code
    assert isinstance(error, ValueError)


def test_refusal_names_the_length_HGV_5_3() -> None:
    error = refusal(HGV, HGV.groups.match_length, FinalScore(2, 1))
    assert error.params == {"length": 3}


def test_seed_examples_of_five_point_scores_with_the_cube_HGV_5_3() -> None:
    length = HGV.knockout.match_length
    assert length == 5
    for white, black in [(6, 4), (7, 4), (6, 3), (6, 2)]:
        assert check(HGV, length, FinalScore(white, black)).winner_side == "white"


def test_cube_scores_beyond_any_last_game_refused_HGV_5_3() -> None:
    length = HGV.knockout.match_length
    # From at most 4 points a last game of up to 3 x 64 reaches 196, not 197.
    assert check(HGV, length, FinalScore(196, 0)).white == 196
    error = refusal(HGV, length, FinalScore(197, 0))
    assert (error.code, error.params) == ("score_out_of_reach", {"length": 5, "most": 196})
    # 60 lies between the values a last game can bring (48 + at most 4, then 64).
    assert refusal(HGV, length, FinalScore(2, 60)).code == "score_out_of_reach"


def test_navodari_five_game_match_over_length_bounds_NAV_GAMES_HGV_5_3() -> None:
    length = NAV.groups.match_length
    assert length == 5
    # A mart (2) from 4 ends 6-4; no game is worth 3, so 7 cannot be reached.
    assert check(NAV, length, FinalScore(6, 4)) == FinalScore(6, 4)
    assert check(NAV, length, FinalScore(4, 6)).winner_side == "black"
    error = refusal(NAV, length, FinalScore(7, 4))
    assert (error.code, error.params) == ("score_out_of_reach", {"length": 5, "most": 6})


def test_tiebreaks_and_lot_are_refused_in_backgammon_HGV_5_3() -> None:
    length = HGV.groups.match_length
    with_tiebreak = FinalScore(3, 1, tiebreaks=((2, 2),))
    assert refusal(HGV, length, with_tiebreak).code == "tiebreak_not_needed"
    assert refusal(HGV, length, FinalScore(3, 1, lot_winner="white")).code == "lot_not_allowed"


def test_bad_length_refused() -> None:
    assert refusal(HGV, 0, FinalScore(1, 0)).code == "bad_length"


# --- Lateness floor (HGV-2.3.1 points on the board before play) ---


def test_final_score_below_lateness_points_refused_HGV_2_3_1() -> None:
    length = HGV.groups.match_length
    floor = (2 * HGV.lateness.points_per_step, 0)  # white waited 20 minutes: 2-0
    assert check(HGV, length, FinalScore(3, 0), floor=floor) == FinalScore(3, 0)
    assert check(HGV, length, FinalScore(2, 3), floor=floor).winner_side == "black"
    error = refusal(HGV, length, FinalScore(1, 3), floor=floor)
    assert (error.code, error.params) == ("below_floor", {"white": 2, "black": 0})


def test_match_lost_by_lateness_keeps_the_lateness_score_HGV_2_3_1() -> None:
    length = HGV.groups.match_length
    floor = (length, 0)
    assert check(HGV, length, FinalScore(3, 0), floor=floor) == FinalScore(3, 0)
    error = refusal(HGV, length, FinalScore(3, 1), floor=floor)
    assert (error.code, error.params) == ("match_already_over", {"white": 3, "black": 0})


# --- HGV-5.2 / NAV-GAMES: game values ---


def test_game_values_times_the_cube_HGV_5_2() -> None:
    rules = HGV.scoring
    assert [game_value(rules, kind, 1) for kind in get_args(GameKind)] == [1, 2, 3]
    assert [game_value(rules, kind, 4) for kind in get_args(GameKind)] == [4, 8, 12]
    assert game_value(rules, "backgammon", 64) == 192
    assert max_game_value(rules) == 192


@pytest.mark.parametrize("cube", [0, 3, 6, 128, -2])
def test_cube_must_be_a_power_of_two_up_to_64_HGV_5_2(cube: int) -> None:
    with pytest.raises(ScoreError) as caught:
        game_value(HGV.scoring, "single", cube)
    assert (caught.value.code, caught.value.params) == (
        "cube_not_power_of_two",
        {"cube": cube, "most": 64},
    )


def test_navodari_counts_linie_and_mart_but_no_triple_NAV_GAMES() -> None:
    rules = NAV.scoring
    assert game_value(rules, "single", 1) == 1
    assert game_value(rules, "gammon", 1) == 2
    assert max_game_value(rules) == 2
    with pytest.raises(ScoreError) as caught:
        game_value(rules, "backgammon", 1)
    assert (caught.value.code, caught.value.params) == (
        "game_kind_not_counted",
        {"kind": "backgammon"},
    )
    with pytest.raises(ScoreError) as caught:
        game_value(rules, "gammon", 2)
    assert caught.value.code == "cube_not_used"


# --- HGV-7.3.2: game by game with the Crawford rule ---


def test_seed_crawford_example_five_points_A_leads_4_2_HGV_7_3_2() -> None:
    white, black = "white", "black"  # A plays white, B black
    match = play(
        HGV,
        GameByGame(length=HGV.knockout.match_length),
        GameRecord(white, "gammon"),
        GameRecord(black, "single", cube=2),
        GameRecord(white, "gammon"),
    )
    assert match.score == (4, 2)
    assert match.crawford_game_next()
    with pytest.raises(ScoreError) as caught:
        add_game(HGV.scoring, match, GameRecord(black, "single", cube=2))
    assert (caught.value.code, caught.value.params) == ("cube_in_crawford_game", {"cube": 2})
    # B wins the Crawford game: 4-3, and the cube may be used again.
    match = add_game(HGV.scoring, match, GameRecord(black, "single"))
    assert match.score == (4, 3)
    assert not match.crawford_game_next()
    match = add_game(HGV.scoring, match, GameRecord(black, "gammon", cube=2))
    assert (match.score, match.is_over) == ((4, 7), True)
    assert check(HGV, match.length, FinalScore(*match.score)).winner_side == "black"
    with pytest.raises(ScoreError) as caught:
        add_game(HGV.scoring, match, GameRecord(white, "single"))
    assert (caught.value.code, caught.value.params) == (
        "match_already_over",
        {"white": 4, "black": 7},
    )


def test_cube_pointless_at_equal_scores_of_length_minus_one_HGV_7_3_2() -> None:
    match = play(
        HGV,
        GameByGame(length=HGV.knockout.match_length),
        GameRecord("white", "gammon", cube=2),
        GameRecord("black", "single"),  # the Crawford game
        GameRecord("black", "backgammon"),
    )
    assert match.score == (4, 4)
    assert not match.crawford_game_next()
    with pytest.raises(ScoreError) as caught:
        add_game(HGV.scoring, match, GameRecord("white", "single", cube=2))
    assert caught.value.code == "cube_pointless"
    assert add_game(HGV.scoring, match, GameRecord("white", "gammon")).score == (6, 4)


def test_crawford_game_only_once_per_match_HGV_7_3_2() -> None:
    match = play(
        HGV,
        GameByGame(length=HGV.knockout.match_length),
        GameRecord("black", "gammon", cube=2),  # 0-4: the next game is the Crawford game
        GameRecord("white", "gammon"),  # 2-4
    )
    assert match.score == (2, 4)
    assert not match.crawford_game_next()
    assert add_game(HGV.scoring, match, GameRecord("white", "single", cube=4)).score == (6, 4)


def test_lateness_points_can_bring_the_crawford_game_HGV_7_3_2() -> None:
    match = GameByGame(length=HGV.groups.match_length, floor=(0, 2))
    assert match.crawford_game_next()
    with pytest.raises(ScoreError):
        add_game(HGV.scoring, match, GameRecord("white", "single", cube=2))


def test_one_point_match_never_uses_the_cube_HGV_7_3_2() -> None:
    match = GameByGame(length=1)
    assert match.cube_pointless()
    with pytest.raises(ScoreError) as caught:
        add_game(HGV.scoring, match, GameRecord("white", "single", cube=2))
    assert caught.value.code == "cube_pointless"


def test_navodari_game_by_game_has_no_cube_and_no_triple_NAV_GAMES() -> None:
    match = GameByGame(length=NAV.groups.match_length)
    for record, code in [
        (GameRecord("white", "single", cube=2), "cube_not_used"),
        (GameRecord("white", "backgammon"), "game_kind_not_counted"),
    ]:
        with pytest.raises(ScoreError) as caught:
            add_game(NAV.scoring, match, record)
        assert caught.value.code == code
    played = play(NAV, match, *[GameRecord("black", "gammon")] * 3)
    assert (played.score, played.is_over) == ((0, 6), True)


# --- WAR-V / WAR-GAME: draughts match and rematch, tiebreak phases, lot ---


def test_draughts_game_points_WAR_GAME() -> None:
    assert [draughts_game_points(o) for o in ("win", "draw", "loss")] == [2, 1, 0]
    with pytest.raises(ScoreError) as caught:
        draughts_game_points("tie")  # type: ignore[arg-type]
    assert caught.value.code == "unknown_outcome"


def test_decided_draughts_match_WAR_V() -> None:
    length = WAR.groups.match_length
    assert check(WAR, length, FinalScore(3, 1)).winner_side == "white"
    assert check(WAR, length, FinalScore(0, 4)).winner_side == "black"
    error = refusal(WAR, length, FinalScore(3, 2))
    assert (error.code, error.params) == ("draughts_total_wrong", {"total": 4, "phase": 0})


def test_drawn_draughts_match_needs_tiebreak_WAR_V() -> None:
    error = refusal(WAR, WAR.groups.match_length, FinalScore(2, 2))
    assert (error.code, error.params) == (
        "drawn_match_needs_tiebreak",
        {"phase": 1, "game": "2x5"},
    )


def test_drawn_match_decided_in_first_tiebreak_WAR_V() -> None:
    score = FinalScore(2, 2, tiebreaks=((3, 1),))
    assert check(WAR, WAR.groups.match_length, score) == score
    assert score.winner_side == "white"


def test_group_lot_after_all_phases_level_WAR_V() -> None:
    length = WAR.groups.match_length
    level = FinalScore(2, 2, tiebreaks=((2, 2), (2, 2)))
    assert refusal(WAR, length, level).code == "lot_needed"
    by_lot = FinalScore(2, 2, tiebreaks=((2, 2), (2, 2)), lot_winner="black")
    assert check(WAR, length, by_lot).winner_side == "black"
    one_more = FinalScore(2, 2, tiebreaks=((2, 2), (2, 2), (1, 3)))
    error = refusal(WAR, length, one_more)
    assert (error.code, error.params) == ("too_many_tiebreaks", {"allowed": 2})


def test_knockout_allows_a_third_phase_2x2_WAR_V() -> None:
    length = WAR.knockout.match_length
    level = FinalScore(2, 2, tiebreaks=((2, 2), (2, 2)))
    error = refusal(WAR, length, level, knockout=True)
    assert (error.code, error.params) == (
        "drawn_match_needs_tiebreak",
        {"phase": 3, "game": "2x2"},
    )
    third = FinalScore(2, 2, tiebreaks=((2, 2), (2, 2), (1, 3)))
    assert check(WAR, length, third, knockout=True).winner_side == "black"
    all_level = FinalScore(2, 2, tiebreaks=((2, 2),) * 3)
    assert refusal(WAR, length, all_level, knockout=True).code == "lot_needed"
    assert check(WAR, length, FinalScore(2, 2, ((2, 2),) * 3, "white"), knockout=True)


@pytest.mark.parametrize(
    ("score", "code"),
    [
        (FinalScore(3, 1, tiebreaks=((2, 2),)), "tiebreak_not_needed"),
        (FinalScore(3, 1, lot_winner="white"), "lot_not_allowed"),
        (FinalScore(2, 2, tiebreaks=((3, 1),), lot_winner="black"), "lot_not_allowed"),
        (FinalScore(2, 2, tiebreaks=((3, 1), (2, 2))), "tiebreak_already_decided"),
        (FinalScore(2, 2, tiebreaks=((3, 2),)), "draughts_tiebreak_total_wrong"),
        (FinalScore(2, 2, tiebreaks=((5, -1),)), "negative"),
        (FinalScore(2, 2, lot_winner="white"), "drawn_match_needs_tiebreak"),
    ],
)
def test_inconsistent_draughts_tiebreaks_refused_WAR_V(score: FinalScore, code: str) -> None:
    assert refusal(WAR, WAR.groups.match_length, score).code == code


@given(st.lists(st.sampled_from(["win", "draw", "loss"]), min_size=2, max_size=2))
@settings(max_examples=50)
def test_any_two_game_outcomes_make_a_valid_main_score_WAR_GAME(outcomes: list[str]) -> None:
    white = sum(draughts_game_points(o) for o in outcomes)  # type: ignore[arg-type]
    black = 2 * len(outcomes) - white
    score = FinalScore(white, black, tiebreaks=((4, 0),) if white == black else ())
    assert check(WAR, len(outcomes), score) == score


@pytest.mark.parametrize(
    ("typed", "points"),
    [((2, 0), (4, 0)), ((1, 0), (3, 1)), ((0, 1), (1, 3)), ((1, 1), (2, 2)), ((0, 2), (0, 4))],
)
def test_a_draughts_score_typed_in_games_is_read_in_points_WAR_GAME(
    typed: tuple[int, int], points: tuple[int, int]
) -> None:
    """Two games, 2 points a win and 1 a draw: "2-0" (both games won) is 4-0."""
    assert draughts_points_of_games(*typed, 2) == points
    level = points[0] == points[1]
    assert check(WAR, 2, FinalScore(*points, tiebreaks=((4, 0),) if level else ()))


@pytest.mark.parametrize("typed", [(0, 0), (3, 0), (2, 1), (-1, 1), (3, 1)])
def test_what_cannot_be_games_is_not_read_as_games_WAR_GAME(typed: tuple[int, int]) -> None:
    assert draughts_points_of_games(*typed, 2) is None


# --- Misc ---


def test_from_reporter_puts_white_first() -> None:
    assert from_reporter(3, 1, reporter_is_white=True) == (3, 1)
    assert from_reporter(3, 1, reporter_is_white=False) == (1, 3)


def test_level_score_without_tiebreak_has_no_winner() -> None:
    with pytest.raises(ScoreError) as caught:
        _ = FinalScore(2, 2).winner_side
    assert caught.value.code == "no_winner"


# --- Properties ---

records = st.builds(
    GameRecord,
    winner=st.sampled_from(get_args(Side)),
    kind=st.sampled_from(get_args(GameKind)),
    cube=st.sampled_from([1, 1, 1, 2, 4, 8, 64, 3]),
)


@given(
    preset=st.sampled_from([HGV, NAV]),
    length=st.integers(1, 9),
    floor=st.tuples(st.integers(0, 8), st.integers(0, 8)),
    games=st.lists(records, max_size=30),
)
@settings(max_examples=200, deadline=None)
def test_legal_game_sequences_end_in_accepted_final_scores_HGV_5_3_HGV_7_3_2(
    preset: Preset, length: int, floor: tuple[int, int], games: list[GameRecord]
) -> None:
    floor = (min(floor[0], length - 1), min(floor[1], length - 1))
    match = GameByGame(length=length, floor=floor)
    for record in games:
        if match.is_over:
            break
        try:
            match = add_game(preset.scoring, match, record)
        except ScoreError:
            continue
    while not match.is_over:
        match = add_game(preset.scoring, match, GameRecord("white", "single"))
    score = FinalScore(*match.score)
    assert check(preset, length, score, floor=floor) == score
    assert score.winner_side == match.games[-1].winner


ints = st.integers(min_value=-(10**6), max_value=10**6) | st.integers()


@given(
    preset=st.sampled_from([HGV, NAV, WAR]),
    length=ints,
    white=ints,
    black=ints,
    tiebreaks=st.lists(st.tuples(ints, ints), max_size=4),
    lot=st.sampled_from([None, "white", "black"]),
    knockout=st.booleans(),
    floor=st.tuples(ints, ints),
)
@settings(max_examples=200, deadline=None)
def test_check_final_score_raises_only_score_error(
    preset: Preset,
    length: int,
    white: int,
    black: int,
    tiebreaks: list[tuple[int, int]],
    lot: Side | None,
    knockout: bool,
    floor: tuple[int, int],
) -> None:
    score = FinalScore(white, black, tuple(tiebreaks), lot)
    try:
        assert check(preset, length, score, knockout=knockout, floor=floor) is score
    except ScoreError as error:
        assert error.code
