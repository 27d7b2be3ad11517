"""How a night moves on: qualifiers, the knockout starting by itself, the finish."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

from tests.tournament.nights import Night, at
from tournament import attendance, due, forfeits, progress, reports, sanctions
from tournament.events import (
    ExtraGamesScheduled,
    KnockoutStarted,
    PlayerReplaced,
    SanctionRecorded,
    TournamentFinished,
)
from tournament.model import EntryStatus, MatchStatus, Refused, Stage, TournamentStatus
from tournament.preset import load_preset
from tournament.scoring import FinalScore
from tournament.simulation import new_tournament, play_out
from tournament.state import Match


def win(
    night: Night, match: Match, winner: str, when: str = "21:00", loser_score: int = 1
) -> list[object]:
    white_wins = match.white == night.id(winner)
    score = (match.length, loser_score) if white_wins else (loser_score, match.length)
    return list(
        reports.set_result(
            night.state, match.number, FinalScore(white=score[0], black=score[1]), at(when)
        )
    )


def group_night(preset: str, names: tuple[str, ...]) -> Night:
    night = Night(preset)
    night.enter(*names, check_in=at("19:30"))
    night.draw(*names, when=at("19:45"))
    return night


def test_everyone_in_a_group_of_three_qualifies_HGV_7_1() -> None:
    names = ("ana", "bob", "cruz", "dora", "eli", "fay")
    night = group_night("hgv-backgammon", names)
    qualifiers = night.state.preset.groups.qualifiers
    assert qualifiers == 3
    for match in night.state.stage_matches(Stage.GROUP):
        win(night, match, night.name(match.white or 0))
    assert night.state.status is TournamentStatus.KNOCKOUT
    knockout = night.state.stage_matches(Stage.KNOCKOUT)
    assert {p for m in knockout for p in m.players} >= set(night.ids.values()) - {
        p for m in knockout if m.round > 1 for p in m.players
    }
    seeded = {p for m in knockout if m.round == 1 for p in m.players}
    direct = {m.white for m in knockout if m.white_from is None and m.round > 1}
    assert seeded | direct == set(night.ids.values())


def test_the_best_two_of_each_group_go_through_NAV_QUAL() -> None:
    names = tuple(f"p{i}" for i in range(8))
    night = group_night("navodari-table", names)
    for match in night.state.stage_matches(Stage.GROUP):
        # The lower id always wins, so each group's order is by id.
        assert match.white is not None and match.black is not None
        win(night, match, night.name(min(match.white, match.black)))
    knockout = night.state.stage_matches(Stage.KNOCKOUT)
    in_bracket = {p for m in knockout for p in m.players}
    expected = set()
    for group in night.state.groups:
        expected |= set(sorted(group.players)[: night.state.preset.groups.qualifiers])
    assert in_bracket == expected


def test_the_knockout_starts_by_itself_after_the_last_group_match_HGV_2_2() -> None:
    night = group_night("hgv-backgammon", ("ana", "bob", "cruz"))
    group = night.state.stage_matches(Stage.GROUP)
    events: list[object] = []
    for match in group:
        events += win(night, match, night.name(match.white or 0), when="21:00")
    assert any(isinstance(e, KnockoutStarted) for e in events)
    ready = [m for m in night.state.stage_matches(Stage.KNOCKOUT) if m.start is not None]
    break_minutes = night.state.preset.knockout.break_minutes
    assert ready and all(m.start == at("21:00") + timedelta(minutes=break_minutes) for m in ready)


def test_group_rounds_start_on_time_as_published_HGV_2_2() -> None:
    night = group_night("hgv-backgammon", ("ana", "bob", "cruz"))
    minutes = night.state.preset.groups.round_minutes
    starts = sorted({m.start for m in night.state.matches.values()})
    assert starts == [night.state.start + timedelta(minutes=minutes * k) for k in range(3)]


def test_a_tournament_finishes_with_places_and_ranking_points_HGV_7_5() -> None:
    state = new_tournament(load_preset("hgv-backgammon"), 12, at("20:00"), seed=5)
    play_out(state, seed=9)
    assert state.status is TournamentStatus.FINISHED
    champion = next(p for p in state.placements if p.place == 1)
    wins = sum(1 for m in state.matches.values() if m.winner == champion.player)
    assert Decimal(champion.points) == Decimal("2.10") + Decimal("0.04") * wins
    assert {p.player for p in state.placements} == set(state.entries)


def test_extra_games_settle_a_three_way_tie_before_the_knockout_NAV_TIE() -> None:
    names = ("ana", "bob", "cruz")
    night = Night("navodari-table")
    night.enter(*names, check_in=at("19:30"))
    night.draw(*names, when=at("19:45"))
    cycle = {("ana", "bob"): "ana", ("bob", "cruz"): "bob", ("ana", "cruz"): "cruz"}
    events: list[object] = []
    for match in night.state.stage_matches(Stage.GROUP):
        pair = tuple(sorted((night.name(match.white or 0), night.name(match.black or 0))))
        events += win(night, match, cycle[pair], loser_score=2)  # type: ignore[index]
    scheduled = [e for e in events if isinstance(e, ExtraGamesScheduled)]
    assert scheduled and night.state.status is TournamentStatus.GROUPS
    extra = night.state.stage_matches(Stage.TIEBREAK)
    assert len(extra) == 3 and all(m.length == 1 for m in extra)
    for match in extra:
        pair = tuple(sorted((night.name(match.white or 0), night.name(match.black or 0))))
        winner = "ana" if "ana" in pair else "bob"
        white_wins = match.white == night.id(winner)
        reports.set_result(
            night.state,
            match.number,
            FinalScore(white=1 if white_wins else 0, black=0 if white_wins else 1),
            at("22:00"),
        )
    assert night.state.status is not TournamentStatus.GROUPS
    group = night.state.groups[0]
    assert progress.standings_of(night.state, group).order[:2] == (
        night.id("ana"),
        night.id("bob"),
    )


def test_extra_games_nobody_plays_wait_for_a_director_not_for_ever_NAV_TIE() -> None:
    """bob and cruz, tied for the second place, were both away: their extra game was a
    double forfeit after ten minutes, the next one too, and so on all night (a random
    transcript made 1,400 matches). After a round nobody played, the next round's clocks
    stand from its start: no more forfeits, no more rounds, until a director's lot."""
    names = ("ana", "bob", "cruz")
    night = Night("navodari-table")
    night.enter(*names, check_in=at("19:30"))
    night.draw(*names, when=at("19:45"))
    bob, cruz = night.id("bob"), night.id("cruz")
    for match in night.state.stage_matches(Stage.GROUP):
        if set(match.players) == {bob, cruz}:
            forfeits.forfeit_match(night.state, match, (bob, cruz), at("20:30"), reason="late")
        else:
            win(night, match, "ana")
    attendance.mark_away(night.state, bob, at("20:30"))
    attendance.mark_away(night.state, cruz, at("20:30"))
    progress.settle(night.state, at("20:30"))
    first = night.state.stage_matches(Stage.TIEBREAK)
    assert len(first) == 1 and not first[0].pauses
    events = due.sweep(night.state, at("21:30"))  # a lateness step forfeits both
    assert first[0].status is MatchStatus.DOUBLE_FORFEIT
    scheduled = [e for e in events if isinstance(e, ExtraGamesScheduled)]
    assert len(scheduled) == 1 and scheduled[0].again and scheduled[0].paused, events
    extra = night.state.stage_matches(Stage.TIEBREAK)
    assert len(extra) == 2 and extra[-1].pauses and extra[-1].pauses[-1].end is None
    due.sweep(night.state, at("23:59"))
    assert len(night.state.stage_matches(Stage.TIEBREAK)) == 2, "no round after it"
    assert not extra[-1].is_final and night.state.status is TournamentStatus.GROUPS
    progress.settle_by_lot(night.state, "1", 7, at("23:59"))
    assert night.state.status is TournamentStatus.KNOCKOUT


def test_a_player_who_leaves_loses_the_current_match_and_is_suspended_HGV_2_3_5() -> None:
    night = group_night("hgv-backgammon", ("ana", "bob", "cruz"))
    ana = night.id("ana")
    events = attendance.withdraw(night.state, ana, at("20:05"))
    assert night.state.entries[ana].status is EntryStatus.WITHDRAWN
    assert all(
        m.status is MatchStatus.FORFEIT
        for m in night.state.matches_of(ana)
        if m.stage is Stage.GROUP
    )
    assert any(isinstance(e, SanctionRecorded) and e.reason == "left" for e in events)


def test_withdrawing_before_the_draw_carries_no_sanction_HGV_2_3_6() -> None:
    night = Night("hgv-backgammon")
    night.enter("ana", "bob")
    events = attendance.withdraw(night.state, night.id("ana"), at("18:00"))
    assert events == []
    assert night.state.entries[night.id("ana")].status is EntryStatus.WITHDRAWN


def test_withdrawing_after_the_start_without_coming_is_a_no_show_HGV_2_3_6() -> None:
    # Confirmed, and no notice before the start: the late word is no notice (HGV-2.3.6's
    # "sin avisar previamente"), whether or not the draw was made yet.
    night = Night("hgv-backgammon")
    night.enter("ana", "bob", "cruz")
    ana = night.id("ana")
    assert attendance.withdrawal_sanction(night.state, ana, at("19:59")) is None
    assert attendance.withdrawal_sanction(night.state, ana, at("20:00")) == "no_show"
    events = attendance.withdraw(night.state, ana, at("20:10"))
    assert night.state.entries[ana].status is EntryStatus.WITHDRAWN
    assert events == [SanctionRecorded(at=at("20:10"), player=ana, reason="no_show")]


def test_leaving_after_check_in_before_the_draw_is_leaving_HGV_2_3_5() -> None:
    night = Night("hgv-backgammon")
    night.enter("ana", "bob", "cruz", check_in=at("19:45"))
    ana = night.id("ana")
    events = attendance.withdraw(night.state, ana, at("20:10"))
    assert events == [SanctionRecorded(at=at("20:10"), player=ana, reason="left")]
    assert not night.state.entries[ana].present_now()  # gone from the venue


def test_withdrawing_after_the_start_unconfirmed_carries_no_sanction_HGV_2_3_6() -> None:
    # Only a confirmed player owes the organisers their word.
    night = Night("hgv-backgammon")
    night.enter("ana", "bob", "cruz", confirm=False)
    ana = night.id("ana")
    assert attendance.withdraw(night.state, ana, at("20:10")) == []


def test_withdrawing_after_the_start_unapproved_carries_no_sanction_HGV_1_4() -> None:
    # Never admitted to play (HGV-1.4): a confirmation promised nothing the club held.
    night = Night("hgv-backgammon")
    night.enter("ana", "bob", "cruz")
    ana = night.id("ana")
    night.state.entries[ana].approved = False
    assert attendance.withdraw(night.state, ana, at("20:10")) == []


def test_a_night_never_held_takes_no_entry_and_owes_no_word_HGV_2_3_6() -> None:
    """Its day went by undrawn (`calendar.overdue`): nobody came or stayed away from it. A
    confirmed player withdraws free; a player cannot enter, confirm or check in; a
    director still may (a night moved to tonight, a walk-in)."""
    night = Night("hgv-backgammon")
    night.enter("ana", "bob", "cruz")
    ana, month_on = night.id("ana"), at("12:00", day=31) + timedelta(days=30)
    assert attendance.withdrawal_sanction(night.state, ana, month_on) == "no_show"
    assert attendance.withdrawal_sanction(night.state, ana, month_on, night_passed=True) is None
    assert attendance.withdraw(night.state, ana, month_on, night_passed=True) == []
    attendance.register(night.state, 99, month_on, by_director=True, night_passed=True)
    for refused in (
        lambda: attendance.register(night.state, 98, month_on, night_passed=True),
        lambda: attendance.confirm(night.state, 99, month_on, night_passed=True),
        # Confirmed already: the news is that there is no night, not "you confirmed".
        lambda: attendance.confirm(night.state, night.id("bob"), month_on, night_passed=True),
        lambda: attendance.check_in(night.state, night.id("bob"), month_on, night_passed=True),
    ):
        try:
            refused()
        except Refused as refusal:
            assert refusal.code == "night_passed"
        else:
            raise AssertionError("a night never held took a player's act")
    attendance.check_in(night.state, 99, month_on, director=True, night_passed=True)


def test_a_knockout_forfeiter_gives_the_place_to_their_last_victim_HGV_2_3_8() -> None:
    state = new_tournament(load_preset("hgv-backgammon"), 6, at("20:00"), seed=3)
    progress.draw(state, tuple(sorted(state.entries)), at("20:00"))
    for match in state.stage_matches(Stage.GROUP):
        reports.record_result(
            state,
            match,
            FinalScore(white=match.length, black=0),
            at("21:00"),
            how="director",
            settle=False,
        )
    progress.settle(state, at("21:00"))
    first = next(m for m in state.stage_matches(Stage.KNOCKOUT) if m.is_ready)
    reports.set_result(state, first.number, FinalScore(white=first.length, black=0), at("21:30"))
    winner, victim = first.white, first.black
    assert winner is not None and victim is not None
    later = next(
        m for m in state.stage_matches(Stage.KNOCKOUT) if m.involves(winner) and not m.is_final
    )
    later_ready = later.is_ready
    if not later_ready:
        # Let the other side of the next match be decided first.
        for m in state.stage_matches(Stage.KNOCKOUT):
            if m.is_ready and not m.is_final and m is not later:
                reports.set_result(
                    state, m.number, FinalScore(white=m.length, black=0), at("21:40")
                )
    events = forfeits.forfeit_match(state, later, (winner,), at("22:00"), reason="director")
    assert any(isinstance(e, PlayerReplaced) and e.replacement == victim for e in events)
    assert later.involves(victim) and not later.involves(winner)
    assert state.entries[winner].knockout_forfeit


def test_a_no_show_is_suspended_from_the_next_tournament_only_HGV_2_3_6() -> None:
    record = sanctions.Sanction(
        id=1, player=7, reason="no_show", origin=1, applies_to=None, created_at=at("20:30")
    )
    bound = sanctions.bind_pending(
        [record],
        tournament=2,
        starts=at("20:00", day=28) + timedelta(days=28),
        origin_starts={1: at("20:00")},
    )
    assert bound == [record] and record.applies_to == 2
    assert sanctions.suspension_for([record], 7, 2) is record
    assert sanctions.suspension_for([record], 7, 3) is None
    assert sanctions.barred_from([record], 2) == {7} and not sanctions.barred_from([record], 3)
    sanctions.end(record, at("21:00"), how="excused", note="phoned in sick")
    assert sanctions.suspension_for([record], 7, 2) is None
    assert not sanctions.barred_from([record], 2)


def test_a_suspended_player_cannot_enter_HGV_2_3_6() -> None:
    import pytest

    from tournament.model import Refused

    night = Night("hgv-backgammon")
    with pytest.raises(Refused) as refused:
        attendance.register(night.state, 1, at("12:00"), suspended=True)
    assert refused.value.code == "suspended"


def test_lateness_sweep_finishes_a_tournament_of_no_shows_CLUB_NO_SHOW() -> None:
    night = Night("hgv-backgammon")
    night.enter("ana", check_in=at("19:30"))
    night.enter("bob")
    night.draw("ana", "bob", when=at("19:45"))
    events = due.sweep(night.state, at("23:59"))
    assert night.state.status is TournamentStatus.FINISHED
    assert any(isinstance(e, TournamentFinished) and e.champion == night.id("ana") for e in events)


def test_a_tied_group_plays_its_extra_games_while_other_groups_still_play_NAV_TIE() -> None:
    """Issue 15.9: the tie of group 1 is known, group 2 is still playing: group 1's extra
    games are scheduled at once, and a player can report the first one."""
    names = ("ana", "bob", "cruz", "dan", "eva", "fay")
    night = Night("navodari-table", group_size=3)
    night.enter(*names, check_in=at("19:30"))
    night.draw(*names, when=at("19:45"))
    first, _ = night.state.groups
    circle = {(first.players[0], first.players[1]), (first.players[1], first.players[2])}
    circle.add((first.players[2], first.players[0]))
    events: list[object] = []
    for match in night.state.stage_matches(Stage.GROUP):
        if match.group != first.name:
            continue
        winner = match.white if (match.white, match.black) in circle else match.black
        events += win(night, match, night.name(winner or 0), when="20:40", loser_score=2)
    scheduled = [e for e in events if isinstance(e, ExtraGamesScheduled)]
    assert [e.group for e in scheduled] == [first.name]
    assert any(not m.is_final for m in night.state.stage_matches(Stage.GROUP))  # group 2 plays
    extra = night.state.stage_matches(Stage.TIEBREAK)
    assert len(extra) == 3 and {m.group for m in extra} == {first.name}
    opening = min(extra, key=lambda m: (m.start, m.number))
    assert opening.white is not None and opening.start == at("20:40")
    assert opening in reports.reportable(night.state, opening.white, at("20:41"))
    reports.report_score(
        night.state, opening.number, opening.white, FinalScore(white=1, black=0), at("20:45")
    )
    assert opening.status is MatchStatus.PENDING
