"""A score as the club reads it: tiebreak phases and a lot said once, never an empty
"tiebreak ;" (WAR-V, NAV-TIE)."""

from __future__ import annotations

from commands import views
from commands.rendering import Renderer
from tournament.model import MatchStatus, Stage
from tournament.state import Match


def _extra_game_decided_by_lot() -> Match:
    """Return an extra game a director's /lot decided: no phases of its own."""
    return Match(
        number=16,
        stage=Stage.TIEBREAK,
        round=1,
        length=1,
        white=1,
        black=2,
        start=None,
        group="1",
        status=MatchStatus.FINISHED,
        white_score=1,
        winner=1,
        lot_winner="white",
    )


def test_an_extra_game_decided_by_lot_says_the_lot_without_empty_phases_NAV_TIE() -> None:
    match = _extra_game_decided_by_lot()
    text = Renderer("en", "UTC", "plain")
    said = text.message(views.score(1, 0, match.tiebreaks, match.lot_winner))
    assert said == "1-0 (white won the lot)", said
    cell, _ = views._score_and_status(match, {1: "ana", 2: "bob"})
    assert not isinstance(cell, str)
    assert text.message(cell) == "1-0 (lot: white)", text.message(cell)


def test_a_level_draughts_match_says_its_tiebreak_and_lot_WAR_V() -> None:
    text = Renderer("pl", "UTC", "plain")
    said = text.message(views.score(2, 2, ((2, 2), (2, 2)), "black"))
    assert said == "2-2 (dogrywka 2-2, 2-2; losowanie wygrały czarne)", said
