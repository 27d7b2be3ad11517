"""The score a refusal suggests can itself be reported (WAR-GAME, HGV-5.2)."""

from __future__ import annotations

from commands.players import report_usage
from tournament.model import Stage
from tournament.preset import load_preset
from tournament.scoring import FinalScore, check_final_score
from tournament.state import Match


def match_of(length: int) -> Match:
    return Match(number=1, stage=Stage.GROUP, round=1, length=length, white=1, black=2, start=None)


def suggested(length: int, game: str) -> FinalScore:
    white, black = report_usage(match_of(length), game).removeprefix("/report ").split("-")
    return FinalScore(int(white), int(black))


def test_the_draughts_hint_adds_up_to_two_points_a_game_WAR_GAME() -> None:
    rules = load_preset("warcaby-100").scoring
    assert report_usage(match_of(2), "draughts") == "/report 3-1"
    for length in (1, 2, 3):
        check_final_score(rules, "draughts", length, suggested(length, "draughts"))


def test_the_backgammon_hint_is_a_win_of_the_match_length_HGV_5_2() -> None:
    rules = load_preset("hgv-backgammon").scoring
    assert report_usage(match_of(7), "backgammon") == "/report 7-5"
    for length in (1, 3, 5, 7):
        check_final_score(rules, "backgammon", length, suggested(length, "backgammon"))
