"""Reporting results: pending, accepted, disputed, timed out, set by a director."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.tournament.nights import Night, at
from tournament import due, reports
from tournament.events import MatchFinished, ReportDisputed, ReportPending
from tournament.model import MatchStatus, Refused
from tournament.scoring import FinalScore, ScoreError
from tournament.state import Match


def night_with_a_match() -> tuple[Night, Match]:
    night = Night("hgv-backgammon")
    night.enter("ana", "bob", "cruz", check_in=at("19:30"))
    night.draw("ana", "bob", "cruz", when=at("19:45"))
    match = min(night.state.matches.values(), key=lambda m: m.number)
    return night, match


def white_wins(match: Match) -> FinalScore:
    return FinalScore(white=match.length, black=1)


def test_a_report_waits_for_the_opponent_CLUB_REPORT() -> None:
    night, match = night_with_a_match()
    assert match.white is not None
    events = reports.report_score(
        night.state, match.number, match.white, white_wins(match), at("20:20")
    )
    assert match.status is MatchStatus.PENDING
    assert [type(e) for e in events] == [ReportPending]
    minutes = night.state.preset.reporting.accept_minutes
    assert events[0].accept_by == at("20:20") + timedelta(minutes=minutes)  # type: ignore[attr-defined]


def test_the_opponent_accepts_and_the_result_is_final_CLUB_REPORT() -> None:
    night, match = night_with_a_match()
    assert match.white is not None and match.black is not None
    reports.report_score(night.state, match.number, match.white, white_wins(match), at("20:20"))
    events = reports.accept(night.state, match.number, match.black, at("20:21"))
    assert match.status is MatchStatus.FINISHED
    assert match.winner == match.white
    assert isinstance(events[0], MatchFinished) and events[0].how == "accepted"


def test_a_report_stands_after_the_time_out_CLUB_REPORT() -> None:
    night, match = night_with_a_match()
    assert match.white is not None
    reports.report_score(night.state, match.number, match.white, white_wins(match), at("20:20"))
    minutes = night.state.preset.reporting.accept_minutes
    due.sweep(night.state, at("20:20") + timedelta(minutes=minutes) - timedelta(seconds=1))
    assert match.status is MatchStatus.PENDING
    events = due.sweep(night.state, at("20:20") + timedelta(minutes=minutes))
    assert match.status is MatchStatus.FINISHED
    assert any(isinstance(e, MatchFinished) and e.how == "timeout" for e in events)


def test_a_contradicting_report_waits_for_a_director_CLUB_REPORT_HGV_4_8() -> None:
    night, match = night_with_a_match()
    assert match.white is not None and match.black is not None
    reports.report_score(night.state, match.number, match.white, white_wins(match), at("20:20"))
    events = reports.report_score(
        night.state,
        match.number,
        match.black,
        FinalScore(white=1, black=match.length),
        at("20:22"),
    )
    assert match.status is MatchStatus.DISPUTED
    assert [type(e) for e in events] == [ReportDisputed]
    due.sweep(night.state, at("23:00"))
    assert match.status is MatchStatus.DISPUTED  # no time-out settles a dispute
    reports.set_result(
        night.state, match.number, FinalScore(white=1, black=match.length), at("23:05")
    )
    assert match.status is MatchStatus.FINISHED
    assert match.winner == match.black


def test_the_same_score_from_both_players_is_final_at_once_CLUB_REPORT() -> None:
    night, match = night_with_a_match()
    assert match.white is not None and match.black is not None
    reports.report_score(night.state, match.number, match.white, white_wins(match), at("20:20"))
    reports.report_score(night.state, match.number, match.black, white_wins(match), at("20:21"))
    assert match.status is MatchStatus.FINISHED


def test_a_dispute_stops_the_time_out_CLUB_REPORT() -> None:
    night, match = night_with_a_match()
    assert match.white is not None and match.black is not None
    reports.report_score(night.state, match.number, match.white, white_wins(match), at("20:20"))
    reports.dispute(night.state, match.number, match.black, at("20:25"))
    due.sweep(night.state, at("23:00"))
    assert match.status is MatchStatus.DISPUTED


def test_the_director_corrects_a_final_result_HGV_4_8() -> None:
    night, match = night_with_a_match()
    assert match.white is not None and match.black is not None
    reports.set_result(night.state, match.number, white_wins(match), at("20:30"))
    reports.set_result(
        night.state, match.number, FinalScore(white=2, black=match.length), at("20:35")
    )
    assert match.winner == match.black
    assert (match.white_score, match.black_score) == (2, match.length)


def test_a_player_may_not_report_someone_elses_match() -> None:
    night, match = night_with_a_match()
    outsider = next(p for p in night.ids.values() if p not in match.players)
    with pytest.raises(Refused) as refused:
        reports.report_score(night.state, match.number, outsider, white_wins(match), at("20:20"))
    assert refused.value.code == "not_your_match"


def test_an_impossible_score_is_refused_and_changes_nothing_HGV_5_3() -> None:
    night, match = night_with_a_match()
    assert match.white is not None
    with pytest.raises(ScoreError) as refused:
        reports.report_score(
            night.state,
            match.number,
            match.white,
            FinalScore(white=match.length, black=match.length),
            at("20:20"),
        )
    assert refused.value.code == "both_reached_length"
    assert match.status is MatchStatus.SCHEDULED and match.report is None


def test_games_reported_one_by_one_become_a_pending_report_HGV_7_3_2() -> None:
    night, match = night_with_a_match()
    assert match.white is not None and match.black is not None
    reports.report_game(night.state, match.number, match.white, "gammon", 1, at("20:10"))
    assert (match.white_score, match.black_score) == (2, 0)
    with pytest.raises(ScoreError) as refused:  # 2 of 3: the Crawford game, no cube
        reports.report_game(night.state, match.number, match.black, "single", 2, at("20:15"))
    assert refused.value.code == "cube_in_crawford_game"
    reports.report_game(night.state, match.number, match.black, "single", 1, at("20:15"))
    events = reports.report_game(night.state, match.number, match.white, "single", 1, at("20:20"))
    assert match.status is MatchStatus.PENDING
    assert isinstance(events[-1], ReportPending)
    assert (events[-1].white_score, events[-1].black_score) == (3, 1)
