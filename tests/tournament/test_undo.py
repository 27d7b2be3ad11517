"""Undo for people and the tie that never ends: reinstate, excuse, extra games, the lot."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.tournament.nights import Night, at
from tournament import attendance, due, progress, reports, sanctions
from tournament.events import EntryReinstated, ExtraGamesScheduled, TieSettledByLot
from tournament.model import EntryStatus, MatchStatus, Refused, Stage, TournamentStatus
from tournament.scoring import FinalScore
from tournament.state import Match


def group_night(preset: str, names: tuple[str, ...]) -> Night:
    night = Night(preset)
    night.enter(*names, check_in=at("19:30"))
    night.draw(*names, when=at("19:45"))
    return night


def test_reinstating_a_player_who_left_reopens_the_forfeits_leaving_caused_HGV_2_3_5() -> None:
    night = group_night("hgv-backgammon", ("ana", "bob", "cruz"))
    ana = night.id("ana")
    first = night.state.matches_of(ana)[0]
    reports.set_result(night.state, first.number, FinalScore(3, 1), at("20:30"))
    attendance.withdraw(night.state, ana, at("20:40"))
    forfeited = [m for m in night.state.matches_of(ana) if m.status is MatchStatus.FORFEIT]
    assert forfeited
    events = attendance.reinstate(night.state, ana, at("20:50"))
    assert night.state.entries[ana].status is EntryStatus.ACTIVE
    assert all(m.status is MatchStatus.SCHEDULED for m in forfeited)
    assert all(m.start is not None and m.start >= at("20:50") for m in forfeited)
    assert first.status is MatchStatus.FINISHED  # a played match stays played
    reinstated = [e for e in events if isinstance(e, EntryReinstated)]
    assert reinstated and reinstated[0].reopened == tuple(m.number for m in forfeited)


def test_reinstating_a_no_show_keeps_the_forfeit_lost_by_lateness_CLUB_NO_SHOW() -> None:
    night = Night("hgv-backgammon")
    night.enter("ana", "bob", check_in=at("19:30"))
    night.enter("cruz")  # confirmed, never comes
    night.draw("ana", "bob", "cruz", when=at("19:45"))
    cruz = night.id("cruz")
    due.sweep(night.state, at("21:30"))
    assert night.state.entries[cruz].status is EntryStatus.NO_SHOW
    by_lateness = [
        m for m in night.state.matches_of(cruz) if f"forfeit:{m.number}" in night.state.done
    ]
    assert len(by_lateness) == 1
    attendance.reinstate(night.state, cruz, at("21:35"))
    attendance.check_in(night.state, cruz, at("21:35"), director=True)
    assert by_lateness[0].status is MatchStatus.FORFEIT
    others = [m for m in night.state.matches_of(cruz) if m is not by_lateness[0]]
    assert others and all(not m.is_final for m in others)


def test_reinstating_someone_active_is_refused() -> None:
    night = group_night("hgv-backgammon", ("ana", "bob", "cruz"))
    with pytest.raises(Refused) as refused:
        attendance.reinstate(night.state, night.id("ana"), at("20:05"))
    assert refused.value.code == "entry_already_active"


def test_the_suspension_a_departure_caused_is_found_to_lift_HGV_2_3_5() -> None:
    left = sanctions.Sanction(1, 7, "left", 1, None, at("20:00"))
    other = sanctions.Sanction(2, 7, "director", 1, None, at("20:00"))
    earlier = sanctions.Sanction(3, 7, "no_show", 0, None, at("20:00"))
    assert sanctions.caused_by([left, other, earlier], 7, 1) == [left]


def test_excuse_applies_to_a_no_show_not_to_a_plain_withdrawal_CLUB_NO_SHOW() -> None:
    night = Night("hgv-backgammon")
    night.enter("ana", "bob")
    attendance.withdraw(night.state, night.id("ana"), at("18:00"))
    assert attendance.excuse(night.state, night.id("ana")) is False
    night.state.entries[night.id("bob")].status = EntryStatus.NO_SHOW
    assert attendance.excuse(night.state, night.id("bob")) is True
    assert night.state.entries[night.id("bob")].status is EntryStatus.WITHDRAWN
    assert attendance.excuse(night.state, night.id("bob")) is False  # once only
    records = [
        sanctions.Sanction(1, 2, "no_show", 1, None, at("20:00")),
        sanctions.Sanction(2, 2, "left", 1, None, at("20:00")),
    ]
    assert sanctions.excusable(records, 2) == records[:1]


def cycle_night() -> Night:
    names = ("ana", "bob", "cruz")
    night = group_night("navodari-table", names)
    cycle = {("ana", "bob"): "ana", ("bob", "cruz"): "bob", ("ana", "cruz"): "cruz"}
    for match in night.state.stage_matches(Stage.GROUP):
        pair = tuple(sorted((night.name(match.white or 0), night.name(match.black or 0))))
        winner = cycle[pair]  # type: ignore[index]
        white_wins = match.white == night.id(winner)
        score = FinalScore(5, 2) if white_wins else FinalScore(2, 5)
        reports.set_result(night.state, match.number, score, at("21:00"))
    return night


def open_extra(night: Night) -> list[Match]:
    return [m for m in night.state.stage_matches(Stage.TIEBREAK) if not m.is_final]


def test_extra_games_of_a_three_way_tie_never_overlap_for_a_player_NAV_TIE() -> None:
    night = cycle_night()
    extra = open_extra(night)
    assert len(extra) == 3
    length = timedelta(minutes=night.state.preset.groups.tiebreak_game_minutes)
    for a in extra:
        for b in extra:
            if a is not b and set(a.players) & set(b.players):
                assert a.start is not None and b.start is not None
                assert abs(a.start - b.start) >= length


def play_cycle(night: Night, when: str) -> list[object]:
    """Play the open extra games as a cycle again: nobody is ahead."""
    events: list[object] = []
    beats = {night.id("ana"): night.id("bob"), night.id("bob"): night.id("cruz")}
    beats[night.id("cruz")] = night.id("ana")
    for match in open_extra(night):
        assert match.white is not None
        white_wins = beats[match.white] == match.black
        score = FinalScore(1, 0) if white_wins else FinalScore(0, 1)
        events += reports.set_result(night.state, match.number, score, at(when))
    return events


def test_a_cycle_again_schedules_more_games_and_offers_a_lot_NAV_TIE() -> None:
    night = cycle_night()
    events = play_cycle(night, "22:00")
    again = [e for e in events if isinstance(e, ExtraGamesScheduled)]
    assert again and again[-1].again
    assert len(open_extra(night)) == 3


def test_a_director_settles_a_remaining_tie_by_lot_with_the_seed_recorded_NAV_TIE() -> None:
    night = cycle_night()
    play_cycle(night, "22:00")
    assert progress.open_ties(night.state) == ["1"]
    events = progress.settle_by_lot(night.state, "1", seed=4242, at=at("22:30"))
    assert progress.open_ties(night.state) == []
    lot = [e for e in events if isinstance(e, TieSettledByLot)]
    assert lot and lot[0].seed == 4242
    assert night.state.status is not TournamentStatus.GROUPS
    order = progress.standings_of(night.state, night.state.groups[0]).order
    assert order == lot[0].order
    # The same seed draws the same order: the lot is reproducible.
    again = cycle_night()
    play_cycle(again, "22:00")
    replay = progress.settle_by_lot(again.state, "1", seed=4242, at=at("22:30"))
    assert next(e for e in replay if isinstance(e, TieSettledByLot)).order == lot[0].order


def test_a_lot_without_an_open_tie_is_refused_NAV_TIE() -> None:
    night = group_night("navodari-table", ("ana", "bob", "cruz"))
    with pytest.raises(Refused) as refused:
        progress.settle_by_lot(night.state, "1", seed=1, at=at("21:00"))
    assert refused.value.code == "no_tie_to_settle"


# -- the right match (HGV-2.3.4, CLUB-REPORT) --


def test_a_report_for_a_match_not_started_with_the_opponent_absent_is_refused_HGV_2_3_4() -> None:
    night = Night("hgv-backgammon")
    night.enter("ana", "bob", "cruz")
    night.draw("ana", "bob", "cruz", when=at("19:00"))
    attendance.check_in(night.state, night.id("ana"), at("19:30"), director=True)
    match = night.state.matches_of(night.id("ana"))[0]
    assert match.start == at("20:00")
    with pytest.raises(Refused) as refused:
        reports.report_score(
            night.state, match.number, night.id("ana"), FinalScore(3, 1), at("19:45")
        )
    assert refused.value.code == "match_not_started"
    assert refused.value.params["start"] == at("20:00")
    assert reports.reportable(night.state, night.id("ana"), at("19:45")) == []


def test_both_players_free_may_start_their_next_match_early_HGV_2_3_4() -> None:
    night = Night("hgv-backgammon")
    night.enter("ana", "bob", "cruz", check_in=at("19:30"))
    night.draw("ana", "bob", "cruz", when=at("19:35"))
    first = min(night.state.matches.values(), key=lambda m: (m.start, m.number))
    assert first.white is not None and first.black is not None
    assert reports.reportable(night.state, first.white, at("19:45")) == [first]
    # The player who sits out round 1 may not start round 2 early: the opponent has
    # round 1 to play first.
    (resting,) = set(night.ids.values()) - set(first.players)
    assert reports.reportable(night.state, resting, at("19:45")) == []
    reports.report_score(night.state, first.number, first.white, FinalScore(3, 1), at("19:45"))
    assert first.status is MatchStatus.PENDING


def test_a_player_whose_match_is_reported_is_free_for_the_next_early_HGV_2_3_4() -> None:
    """Valencia: Rocío's match 1 was reported, awaiting her answer; José, at his table
    for match 5 with her, read "your opponent plays match 1 first" until 19:40."""
    night = Night("hgv-backgammon")
    night.enter("ana", "bob", "cruz", check_in=at("19:30"))
    night.draw("ana", "bob", "cruz", when=at("19:35"))
    first = min(night.state.matches.values(), key=lambda m: (m.start, m.number))
    assert first.white is not None
    (resting,) = set(night.ids.values()) - set(first.players)
    later = night.state.open_matches_of(resting)[0]
    assert later.start is not None and later.start > at("19:50")
    reports.report_score(night.state, first.number, first.white, FinalScore(3, 1), at("19:45"))
    assert first.status is MatchStatus.PENDING
    assert reports.reportable(night.state, resting, at("19:46")) == [later]
    reports.report_score(night.state, later.number, resting, FinalScore(3, 1), at("19:46"))
    assert later.status is MatchStatus.PENDING


def test_after_the_first_match_a_later_match_against_an_absent_player_is_not_reportable() -> None:
    """The story: match 1 final, `/report 3-1` must not land on a later match (HGV-2.3.4)."""
    night = Night("hgv-backgammon")
    night.enter("alice", "bob", check_in=at("19:30"))
    night.enter("hugo")
    night.draw("alice", "bob", "hugo", when=at("19:35"))
    alice = night.id("alice")
    first = night.state.matches_of(alice)[0]
    reports.set_result(night.state, first.number, FinalScore(3, 1), at("20:30"))
    later = [m for m in night.state.matches_of(alice) if not m.is_final]
    assert later and all(m.involves(night.id("hugo")) for m in later)
    assert later[0].start is not None and later[0].start > at("20:30")
    assert reports.reportable(night.state, alice, at("20:31")) == []


def test_a_report_too_early_says_why_in_the_words_that_fit_HGV_2_3_4() -> None:
    """The opponent is present but has an earlier match: not "has not checked in"."""
    night = Night("hgv-backgammon")
    night.enter("ana", "bob", "cruz", check_in=at("19:30"))
    night.draw("ana", "bob", "cruz", when=at("19:35"))
    first = min(night.state.matches.values(), key=lambda m: (m.start, m.number))
    (resting,) = set(night.ids.values()) - set(first.players)
    later = night.state.open_matches_of(resting)[0]
    assert first.white is not None
    busy = first.white if later.involves(first.white) else first.black
    assert busy is not None and later.involves(busy)
    with pytest.raises(Refused) as refused:
        reports.report_score(night.state, later.number, resting, FinalScore(3, 1), at("19:45"))
    assert refused.value.code == "match_after_theirs"
    assert refused.value.params["earlier"] == first.number
    # The busy player asks about the later match: their own match comes first.
    assert reports.not_yet(night.state, later, at("19:45"), busy).code == "match_after_mine"


def test_a_report_before_the_start_with_the_opponent_ready_says_only_when_HGV_2_3_4() -> None:
    night = Night("hgv-backgammon")
    night.enter("ana", "bob", "cruz")
    night.draw("ana", "bob", "cruz", when=at("19:00"))
    match = night.state.matches_of(night.id("ana"))[0]
    opponent = match.black if match.white == night.id("ana") else match.white
    assert opponent is not None
    attendance.check_in(night.state, opponent, at("19:30"), director=True)
    # Ana has not checked in herself: no early start, and her opponent is not to blame.
    refused = reports.not_yet(night.state, match, at("19:45"), night.id("ana"))
    assert refused.code == "match_later" and refused.params["start"] == at("20:00")
