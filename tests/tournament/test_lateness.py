"""Lateness, presence and no-shows as the sweep applies them (HGV-2.3.1 and friends)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.tournament.nights import Night, at
from tournament import attendance, corrections, due, overrides, reports
from tournament.events import LatenessPoint, MatchForfeited, NoShow, SanctionRecorded
from tournament.lateness import forfeit_minutes, point_steps
from tournament.model import EntryStatus, MatchStatus, Refused, Stage
from tournament.preset import load_preset
from tournament.scoring import FinalScore


def two_player_night(**overrides: object) -> Night:
    night = Night("hgv-backgammon", **overrides)
    night.enter("alice", check_in=at("19:30"))
    night.enter("bob")  # confirmed, not here yet
    night.draw("alice", "bob", when=at("19:45"))
    return night


def test_the_seed_example_20_10_is_1_0_and_20_30_is_a_3_0_forfeit_HGV_2_3_1() -> None:
    night = two_player_night()
    match = night.match("alice", "bob")
    alice_is_white = match.white == night.id("alice")

    def alice_bob() -> tuple[int, int]:
        score = night.score(match)
        return score if alice_is_white else (score[1], score[0])

    due.sweep(night.state, at("20:09"))
    assert alice_bob() == (0, 0)
    due.sweep(night.state, at("20:10"))
    assert alice_bob() == (1, 0)
    due.sweep(night.state, at("20:20"))
    assert alice_bob() == (2, 0)
    due.sweep(night.state, at("20:30"))
    assert alice_bob() == (3, 0)
    assert match.status is MatchStatus.FORFEIT
    assert match.winner == night.id("alice")


def test_a_late_player_who_arrives_plays_on_from_the_penalised_score_HGV_2_3_1() -> None:
    night = two_player_night()
    match = night.match("alice", "bob")
    due.sweep(night.state, at("20:24"))
    attendance.check_in(night.state, night.id("bob"), at("20:25"))
    due.sweep(night.state, at("21:30"))
    assert sorted(night.score(match)) == [0, 2]
    assert match.status is MatchStatus.SCHEDULED
    assert match.winner is None


def test_a_five_point_match_is_forfeited_at_fifty_minutes_HGV_2_3_1() -> None:
    rules = load_preset("hgv-backgammon").lateness
    assert forfeit_minutes(rules, 5) == 50
    assert point_steps(rules, 5) == [1, 2, 3, 4]
    night = two_player_night(group_length="5")
    match = night.match("alice", "bob")
    due.sweep(night.state, at("20:49"))
    assert sorted(night.score(match)) == [0, 4]
    assert not match.is_final
    due.sweep(night.state, at("20:50"))
    assert sorted(night.score(match)) == [0, 5]
    assert match.status is MatchStatus.FORFEIT


def test_a_late_sweep_stamps_each_effect_with_the_time_it_fell_due_HGV_2_3_1() -> None:
    night = two_player_night()
    events = due.sweep(night.state, at("20:35"))
    points = [e for e in events if isinstance(e, LatenessPoint)]
    assert [e.at for e in points] == [at("20:10"), at("20:20")]
    assert [p.at for p in night.state.penalties.values()] == [at("20:10"), at("20:20")]
    forfeit = next(e for e in events if isinstance(e, MatchForfeited))
    assert forfeit.at == at("20:30")


def test_nobody_scores_while_both_are_absent_then_both_lose_CLUB_BOTH_ABSENT() -> None:
    night = Night("hgv-backgammon")
    night.enter("alice", "bob", "carol", check_in=at("19:30"))
    night.draw("alice", "bob", "carol", when=at("19:45"))
    first = next(m for m in night.state.matches.values() if m.round == 1)
    for player in first.players:
        attendance.mark_away(night.state, player, at("19:50"))
    due.sweep(night.state, at("20:29"))
    assert night.score(first) == (0, 0)
    due.sweep(night.state, at("20:30"))
    assert first.status is MatchStatus.DOUBLE_FORFEIT
    assert first.winner is None
    assert first.forfeited_by == frozenset(first.players)


def test_the_director_can_pause_the_lateness_clock_CLUB_BOTH_ABSENT() -> None:
    night = two_player_night()
    match = night.match("alice", "bob")
    overrides.pause(night.state, match.number, at("20:05"))
    due.sweep(night.state, at("20:40"))
    assert night.score(match) == (0, 0)
    overrides.resume(night.state, match.number, at("20:40"))
    due.sweep(night.state, at("20:44"))
    assert night.score(match) == (0, 0)
    due.sweep(night.state, at("20:45"))  # 5 minutes before the pause, 5 after
    assert sorted(night.score(match)) == [0, 1]


def test_the_director_can_cancel_a_penalty_and_it_is_not_applied_again_CLUB_BOTH_ABSENT() -> None:
    night = two_player_night()
    match = night.match("alice", "bob")
    due.sweep(night.state, at("20:15"))
    overrides.cancel_penalties(night.state, match.number)
    attendance.check_in(night.state, night.id("bob"), at("20:16"))
    due.sweep(night.state, at("21:00"))
    assert night.score(match) == (0, 0)


def test_lateness_runs_against_a_player_marked_away_CLUB_PRESENCE_HGV_2_3_7() -> None:
    night = Night("hgv-backgammon")
    night.enter("alice", "bob", "carol", check_in=at("19:30"))
    night.draw("alice", "bob", "carol", when=at("19:45"))
    second = next(m for m in night.state.matches.values() if m.round == 2)
    late = second.white
    assert late is not None
    # Everyone plays round 1 on time; then the white player of round 2 leaves the venue.
    attendance.mark_away(night.state, late, at("20:30"))
    due.sweep(night.state, at("20:50"))  # round 2 is due at 20:40
    assert second.score_of(second.opponent_of(late) or 0) == 1
    assert night.state.entries[late].status is EntryStatus.ACTIVE  # came, so no no-show
    # Marked away again: refused as already away, with since when (not "not checked in").
    with pytest.raises(Refused) as refused:
        attendance.mark_away(night.state, late, at("20:55"))
    assert (refused.value.code, refused.value.params) == ("already_away", {"since": at("20:30")})


def test_a_confirmed_player_who_never_comes_is_a_no_show_CLUB_NO_SHOW_HGV_2_3_6() -> None:
    night = Night("hgv-backgammon")
    night.enter("alice", "carol", check_in=at("19:30"))
    night.enter("bob")
    night.draw("alice", "bob", "carol", when=at("19:45"))
    bob = night.id("bob")
    first = night.state.matches_of(bob)[0]
    events = due.sweep(night.state, first.start + timedelta(minutes=30))  # type: ignore[operator]
    assert night.state.entries[bob].status is EntryStatus.NO_SHOW
    assert all(
        m.is_final and bob in m.forfeited_by
        for m in night.state.matches_of(bob)
        if m.stage is Stage.GROUP
    )
    assert any(isinstance(e, NoShow) and e.player == bob for e in events)
    assert any(isinstance(e, SanctionRecorded) and e.reason == "no_show" for e in events)


def test_a_player_who_checked_in_then_left_is_not_a_no_show_CLUB_NO_SHOW() -> None:
    night = two_player_night()
    bob = night.id("bob")
    attendance.check_in(night.state, bob, at("19:50"))
    attendance.mark_away(night.state, bob, at("19:55"))
    due.sweep(night.state, at("20:30"))
    assert night.match("alice", "bob").status is MatchStatus.FORFEIT
    assert night.state.entries[bob].status is EntryStatus.ACTIVE


def test_nobody_wins_by_a_no_show_without_coming_CLUB_NO_SHOW_CLUB_BOTH_ABSENT() -> None:
    """Three entered, nobody checks in: no forfeit win, no champion for someone never there."""
    night = Night("hgv-backgammon")
    night.enter("alice", "bob", "carol")
    night.draw("alice", "bob", "carol", when=at("19:45"))
    due.sweep(night.state, at("23:59"))
    group = [m for m in night.state.matches.values() if m.stage is Stage.GROUP]
    assert [m.status for m in group] == [MatchStatus.DOUBLE_FORFEIT] * 3
    assert all(m.winner is None for m in group)
    assert all(e.status is EntryStatus.NO_SHOW for e in night.state.entries.values())


def test_a_no_show_forfeits_at_once_to_an_opponent_who_is_here_CLUB_NO_SHOW() -> None:
    """The no-show's later match goes to the opponent who came, who waits no longer."""
    night = Night("hgv-backgammon")
    night.enter("alice", "bob")
    night.enter("carol", check_in=at("19:30"))
    night.draw("alice", "bob", "carol", when=at("19:45"))
    due.sweep(night.state, at("20:30"))
    absent = [
        p
        for p in ("alice", "bob")
        if night.state.entries[night.id(p)].status is EntryStatus.NO_SHOW
    ]
    assert absent
    for name in absent:
        match = night.match(name, "carol")
        if match.is_final:
            assert match.winner == night.id("carol")


def test_a_no_show_leaves_the_match_of_an_opponent_not_yet_here_to_the_clock_CLUB_NO_SHOW() -> (
    None
):
    """The opponent who has not come yet gets no win now; arriving in time, they win it."""
    night = Night("hgv-backgammon")
    night.enter("alice", "bob", "carol")
    night.draw("alice", "bob", "carol", when=at("19:45"))
    first = next(m for m in night.state.matches.values() if m.round == 1)
    third = next(p for p in night.ids.values() if p not in first.players)
    attendance.check_in(night.state, first.white or 0, at("19:50"))
    due.sweep(night.state, at("20:30"))  # black never came: a no-show
    assert night.state.entries[first.black or 0].status is EntryStatus.NO_SHOW
    pending = next(m for m in night.state.matches_of(third) if first.black in m.players)
    assert pending.winner is None and not pending.is_final
    attendance.check_in(night.state, third, at("20:31"))
    due.sweep(night.state, at("20:31"))  # here: the no-show's match is theirs at once
    assert pending.winner == third and pending.finished_at == at("20:31")


def test_a_player_who_played_is_no_no_show_without_a_check_in_CLUB_NO_SHOW() -> None:
    """A club whose director types the results checks nobody in: a player late for a later
    match after playing one came, and loses that match without a no-show suspension."""
    night = Night("hgv-backgammon")
    night.enter("alice", "bob", "carol")
    night.draw("alice", "bob", "carol", when=at("19:45"))
    first = next(m for m in night.state.matches.values() if m.round == 1)
    reports.set_result(night.state, first.number, FinalScore(3, 1), at("20:05"))
    due.sweep(night.state, at("23:59"))
    for player in first.players:
        assert night.state.entries[player].status is EntryStatus.ACTIVE


def test_an_excused_no_show_gets_back_the_match_given_on_arrival_CLUB_NO_SHOW() -> None:
    """Reinstating a no-show reopens the match their opponent took on arriving too."""
    night = Night("hgv-backgammon")
    night.enter("alice", "bob", "carol")
    night.draw("alice", "bob", "carol", when=at("19:45"))
    first = next(m for m in night.state.matches.values() if m.round == 1)
    third = next(p for p in night.ids.values() if p not in first.players)
    attendance.check_in(night.state, first.white or 0, at("19:50"))
    due.sweep(night.state, at("20:30"))
    attendance.check_in(night.state, third, at("20:31"))
    due.sweep(night.state, at("20:31"))
    pending = next(m for m in night.state.matches_of(third) if first.black in m.players)
    assert pending.winner == third
    attendance.reinstate(night.state, first.black or 0, at("20:32"))
    assert not pending.is_final


def test_a_player_who_answers_for_a_match_is_at_the_table_CLUB_PRESENCE() -> None:
    """bob forgot /checkin but played round 1 and accepted its report at 20:25: from
    then on he is present, and his round 2 match, due at 20:40, costs him nothing."""
    night = Night("hgv-backgammon")
    night.enter("alice", "carol", check_in=at("19:30"))
    night.enter("bob")  # confirmed; his /checkin typed as /chekin, never retyped
    night.draw("alice", "bob", "carol", when=at("19:45"))
    bob = night.id("bob")
    first, second = sorted(night.state.matches_of(bob), key=lambda m: m.round)
    due.sweep(night.state, at("20:05"))  # not late yet
    other = first.opponent_of(bob)
    assert other is not None
    reports.report_score(night.state, first.number, other, FinalScore(3, 1), at("20:20"))
    reports.accept(night.state, first.number, bob, at("20:25"))
    assert night.state.entries[bob].present_now()
    due.sweep(night.state, second.start + timedelta(minutes=25))  # type: ignore[operator]
    assert second.score_of(second.opponent_of(bob) or 0) == 0
    assert night.state.entries[bob].status is EntryStatus.ACTIVE  # he came: no no-show


def test_a_player_given_a_played_result_by_the_director_is_at_the_table_CLUB_PRESENCE() -> None:
    """dora has no chat account; the director entered her and forgot /present. Her
    round 1 result set by the director at 20:05 says she played: her round 2 match costs
    her nothing, and she is no no-show."""
    night = Night("hgv-backgammon")
    night.enter("alice", "carol", check_in=at("19:30"))
    night.enter("dora")  # confirmed, never marked present
    night.draw("alice", "dora", "carol", when=at("19:45"))
    dora = night.id("dora")
    first, second = sorted(night.state.matches_of(dora), key=lambda m: m.round)
    assert first.start == at("20:00")
    corrections.set_result(night.state, first.number, FinalScore(3, 1), at("20:05"))
    assert night.state.entries[dora].present_now()
    due.sweep(night.state, second.start + timedelta(minutes=35))  # type: ignore[operator]
    assert second.score_of(second.opponent_of(dora) or 0) == 0
    assert not second.is_final
    assert night.state.entries[dora].status is EntryStatus.ACTIVE
