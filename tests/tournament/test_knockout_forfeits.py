"""Knockout forfeits on a night: who steps in, and the night still ends (HGV-2.3.8).

A knockout forfeiter's last victim takes their place (HGV-2.3.8); with a third-place
match (NAV-IV) a final forfeiter drops to it, unless the victim has already played it.
A match of a bracket the corrected results replaced is out of the tournament (HGV-4.8).
"""

from __future__ import annotations

import pytest

from tests.tournament.nights import Night, at
from tournament import attendance, corrections, reports
from tournament.events import PlayerReplaced
from tournament.model import MatchStatus, Refused, Stage, TournamentStatus
from tournament.scoring import FinalScore
from tournament.state import Match

CUP = ("ana", "bea", "cid", "dan", "eva", "fay", "gus", "hal")


def win(night: Night, match: Match, winner: str, when: str) -> None:
    white_wins = match.white == night.id(winner)
    score = (match.length, 0) if white_wins else (0, match.length)
    reports.set_result(night.state, match.number, FinalScore(*score), at(when))


def semi_finals_played() -> Night:
    """Return the Navodari cup after its semi-finals: dan beat ana, hal beat gus."""
    night = Night("navodari-table")
    night.enter(*CUP, check_in=at("19:30"))
    night.draw(*CUP, when=at("19:45"))
    for match in night.state.stage_matches(Stage.GROUP):
        win(night, match, night.name(match.white or 0), "20:30")
    win(night, night.match("dan", "ana", Stage.KNOCKOUT), "dan", "21:00")
    win(night, night.match("hal", "gus", Stage.KNOCKOUT), "hal", "21:00")
    return night


def final_and_third(night: Night) -> tuple[Match, Match]:
    (final,) = [m for m in night.state.stage_matches(Stage.KNOCKOUT) if m.round_name == "final"]
    (third,) = night.state.stage_matches(Stage.THIRD_PLACE)
    return final, third


def names(night: Night, match: Match) -> set[str]:
    return {night.name(p) for p in match.players}


def places(night: Night) -> dict[str, int | None]:
    return {night.name(p.player): p.place for p in night.state.placements}


def test_a_final_forfeiter_drops_to_the_third_place_match_not_yet_played_HGV_2_3_8_NAV_IV() -> (
    None
):
    """CLUB-FORFEIT-STEP-IN: the victim plays the final, the forfeiter plays for third."""
    night = semi_finals_played()
    final, third = final_and_third(night)
    assert names(night, third) == {"ana", "gus"}
    events = attendance.director_forfeit(night.state, night.id("dan"), at("21:10"), match=final)
    assert any(isinstance(e, PlayerReplaced) for e in events)
    # ana, beaten by dan, plays the final; dan plays for third place in her stead.
    assert names(night, final) == {"ana", "hal"}
    assert names(night, third) == {"dan", "gus"}
    win(night, third, "gus", "21:20")
    win(night, final, "ana", "21:30")
    assert night.state.status is TournamentStatus.FINISHED
    assert places(night)["ana"] == 1 and places(night)["gus"] == 3


def test_a_final_forfeiter_who_left_loses_the_third_place_match_too_HGV_2_3_5_HGV_2_3_8() -> None:
    night = semi_finals_played()
    final, third = final_and_third(night)
    attendance.leave(night.state, night.id("dan"), at("21:10"), reason="left")
    assert names(night, final) == {"ana", "hal"}
    assert third.status is MatchStatus.FORFEIT and third.winner == night.id("gus")
    win(night, final, "hal", "21:30")
    assert night.state.status is TournamentStatus.FINISHED
    # dan lost the third-place match by forfeit, and his knockout points (HGV-2.3.8).
    assert places(night)["hal"] == 1 and places(night)["gus"] == 3


def test_a_victim_who_played_the_third_place_match_does_not_step_in_HGV_2_3_8_NAV_IV() -> None:
    night = semi_finals_played()
    final, third = final_and_third(night)
    win(night, third, "ana", "21:20")
    events = attendance.director_forfeit(night.state, night.id("dan"), at("21:30"), match=final)
    # The third-place result stands: hal simply wins the final by forfeit.
    assert not any(isinstance(e, PlayerReplaced) for e in events)
    assert final.status is MatchStatus.FORFEIT and final.winner == night.id("hal")
    assert night.state.status is TournamentStatus.FINISHED
    assert places(night) == {
        "hal": 1,
        "ana": 3,
        "gus": 4,
        "dan": 2,  # without his knockout points (HGV-2.3.8)
        **{n: 5 for n in ("bea", "cid", "eva", "fay")},
    }


def replaced_bracket() -> tuple[Night, Match]:
    """Play six to the play-ins, then take eva out (HGV-2.3.3): a new bracket replaces
    the first; return the night and a played play-in of the replaced bracket."""
    night = Night("hgv-backgammon")
    six = CUP[:6]
    night.enter(*six, check_in=at("19:30"))
    night.draw(*six, when=at("19:45"))
    state = night.state
    for match in state.stage_matches(Stage.GROUP):
        win(night, match, night.name(match.white or 0), "20:30")
    win(night, night.match("bea", "eva", Stage.KNOCKOUT), "bea", "20:50")
    old = night.match("ana", "fay", Stage.KNOCKOUT)
    win(night, old, "ana", "20:50")
    dan_eva = night.match("dan", "eva", Stage.GROUP)
    corrections.correct(state, dan_eva.number, "reopen", at("21:00"), confirmed=True)
    # eva leaves: one win, the rest lost by forfeit (HGV-2.3.3); five qualifiers now.
    attendance.leave(state, night.id("eva"), at("21:05"), reason="left")
    played = night.match("bea", "eva", Stage.KNOCKOUT).number
    corrections.correct(state, played, "reopen", at("21:10"), confirmed=True)
    assert old.key is None and old.status is MatchStatus.VOID  # its bracket was replaced
    return night, old


def test_a_match_of_a_replaced_bracket_cannot_be_corrected_HGV_4_8_HGV_7_4_13() -> None:
    """HGV-2.3.3 takes eva out after the play-ins were played: a new bracket replaces the
    first. Bringing back a play-in of the first one would seed fay twice in the "Last
    Chance" (`bracket_duplicate_player`) and stop every later settle. Left alone for
    it, fay has no "Last Chance" (HGV-7.4.13): it is dropped, not waited for."""
    night, old = replaced_bracket()
    state = night.state
    for change in ("reopen", FinalScore(old.length, 0)):
        with pytest.raises(Refused) as refused:
            corrections.correct(state, old.number, change, at("21:15"), confirmed=True)
        assert refused.value.code == "match_replaced"
    for when in ("21:30", "22:00", "22:30"):
        for match in state.stage_matches(Stage.KNOCKOUT):
            if match.key and match.is_ready and not match.is_final:
                win(night, match, night.name(match.white or 0), when)
    # fay lost the one play-in left: alone, she has no "Last Chance" to play.
    assert state.status is TournamentStatus.FINISHED
    assert not [m for m in state.stage_matches(Stage.CONSOLATION) if m.key]


def test_a_victim_who_forfeited_does_not_step_in_HGV_2_3_8() -> None:
    """ana lost her semi-final to dan by forfeit: she was not eliminated by dan, and a
    forfeiter loses the knockout; when dan forfeits the final, hal simply wins it
    (CLUB-FORFEIT-STEP-IN)."""
    night = Night("navodari-table")
    night.enter(*CUP, check_in=at("19:30"))
    night.draw(*CUP, when=at("19:45"))
    state = night.state
    for match in state.stage_matches(Stage.GROUP):
        win(night, match, night.name(match.white or 0), "20:30")
    semi = night.match("dan", "ana", Stage.KNOCKOUT)
    attendance.director_forfeit(state, night.id("ana"), at("21:00"), match=semi)
    win(night, night.match("hal", "gus", Stage.KNOCKOUT), "hal", "21:00")
    final, _ = final_and_third(night)
    events = attendance.director_forfeit(state, night.id("dan"), at("21:10"), match=final)
    assert not any(isinstance(e, PlayerReplaced) for e in events)
    assert final.status is MatchStatus.FORFEIT and final.winner == night.id("hal")


def test_a_victim_who_left_does_not_step_in_HGV_2_3_5_HGV_2_3_8() -> None:
    """eva left after the group stage (her play-in lost by forfeit); bea, who won it,
    forfeits the semi-final: eva is gone, so dan simply goes through."""
    night = Night("hgv-backgammon")
    six = CUP[:6]
    night.enter(*six, check_in=at("19:30"))
    night.draw(*six, when=at("19:45"))
    state = night.state
    for match in state.stage_matches(Stage.GROUP):
        win(night, match, night.name(match.white or 0), "20:30")
    attendance.leave(state, night.id("eva"), at("20:40"), reason="left")
    assert night.match("bea", "eva", Stage.KNOCKOUT).winner == night.id("bea")
    semi = night.match("dan", "bea", Stage.KNOCKOUT)
    events = attendance.director_forfeit(state, night.id("bea"), at("21:00"), match=semi)
    assert not any(isinstance(e, PlayerReplaced) for e in events)
    assert semi.status is MatchStatus.FORFEIT and semi.winner == night.id("dan")


def test_a_player_who_left_keeps_the_points_of_the_matches_they_played_HGV_2_3_5_HGV_7_5() -> None:
    """A club whose director types every result checks nobody in: eva played her group
    (a win, a loss) and left before her play-in. She came: her participation and her win
    count, her knockout points are lost (HGV-2.3.8). Gone, she is not seeded in the
    "Last Chance" (HGV-7.4.13)."""
    night = Night("hgv-backgammon")
    six = CUP[:6]
    night.enter(*six)  # confirmed, never checked in
    night.draw(*six, when=at("19:45"))
    state = night.state
    for match in state.stage_matches(Stage.GROUP):
        win(night, match, night.name(match.white or 0), "20:30")
    attendance.leave(state, night.id("eva"), at("20:40"), reason="left")
    for when in ("21:00", "21:30", "22:00", "22:30"):
        for match in state.stage_matches(Stage.KNOCKOUT, Stage.CONSOLATION):
            if match.key is not None and match.is_ready and not match.is_final:
                win(night, match, night.name(match.white or 0), when)
    assert state.status is TournamentStatus.FINISHED
    assert not any(m.involves(night.id("eva")) for m in state.stage_matches(Stage.CONSOLATION))
    (eva,) = [p for p in state.placements if p.player == night.id("eva")]
    assert eva.points == "0.14"  # participation 0.10, one win 0.04


def eva_stands_in_for_bea() -> tuple[Night, Match, Match]:
    """Return a six-player night where bea beat eva in the play-in and forfeited her
    semi-final against dan, so that eva took her place (HGV-2.3.8): (night, play-in, semi)."""
    night = Night("hgv-backgammon")
    six = CUP[:6]
    night.enter(*six, check_in=at("19:30"))
    night.draw(*six, when=at("19:45"))
    for match in night.state.stage_matches(Stage.GROUP):
        win(night, match, night.name(match.white or 0), "20:30")
    play_in = night.match("bea", "eva", Stage.KNOCKOUT)
    win(night, play_in, "bea", "20:50")
    semi = night.match("dan", "bea", Stage.KNOCKOUT)
    attendance.director_forfeit(night.state, night.id("bea"), at("21:00"), match=semi)
    return night, play_in, semi


def test_a_replacement_goes_when_the_match_it_stood_on_is_replayed_HGV_2_3_8_HGV_4_8() -> None:
    """bea beat eva in the play-in and forfeited the semi-final: eva took her place. A
    corrected group result then re-pairs that play-in (eva now seeded into the semi-final
    herself): the replacement no longer holds, the side waits for the play-in again."""
    night, play_in, semi = eva_stands_in_for_bea()
    state = night.state
    assert names(night, semi) == {"dan", "eva"}
    dan_eva = night.match("dan", "eva", Stage.GROUP)
    corrections.correct(state, dan_eva.number, FinalScore(0, 3), at("21:10"), confirmed=True)
    assert names(night, play_in) == {"bea", "dan"}
    assert (night.name(semi.white or 0), semi.black, semi.black_from) == ("eva", None, play_in.key)


def test_a_replacement_goes_when_the_match_it_stood_on_is_reopened_HGV_2_3_8_HGV_4_8() -> None:
    """eva stepped into the semi-final for bea, who beat her in the play-in; the director
    reopens that play-in: eva is in it again, and the semi-final waits for its winner."""
    night, play_in, semi = eva_stands_in_for_bea()
    state = night.state
    corrections.correct(state, play_in.number, "reopen", at("21:10"), confirmed=True)
    assert not play_in.is_final and names(night, play_in) == {"bea", "eva"}
    assert (semi.black, semi.black_from) == (None, play_in.key)


def test_a_forfeit_undone_by_a_re_pairing_costs_no_knockout_points_HGV_2_3_8_HGV_4_8() -> None:
    """eva forfeited her play-in; a corrected group result then seeds her straight into
    the semi-final and the play-in starts afresh between others: that forfeit is gone,
    and so is its HGV-2.3.8 sanction."""
    night = Night("hgv-backgammon")
    six = CUP[:6]
    night.enter(*six, check_in=at("19:30"))
    night.draw(*six, when=at("19:45"))
    state = night.state
    for match in state.stage_matches(Stage.GROUP):
        win(night, match, night.name(match.white or 0), "20:30")
    play_in = night.match("bea", "eva", Stage.KNOCKOUT)
    attendance.director_forfeit(state, night.id("eva"), at("20:50"), match=play_in)
    assert state.entries[night.id("eva")].knockout_forfeit
    dan_eva = night.match("dan", "eva", Stage.GROUP)
    corrections.correct(state, dan_eva.number, FinalScore(0, 3), at("21:10"), confirmed=True)
    assert names(night, play_in) == {"bea", "dan"} and not play_in.is_final
    assert not state.entries[night.id("eva")].knockout_forfeit


def last_chance_night() -> Night:
    """Return six HGV players after the play-ins: bea beat eva, ana beat fay; eva and
    fay are to play the "Last Chance" final (HGV-7.4.13)."""
    night = Night("hgv-backgammon")
    six = CUP[:6]
    night.enter(*six, check_in=at("19:30"))
    night.draw(*six, when=at("19:45"))
    for match in night.state.stage_matches(Stage.GROUP):
        win(night, match, night.name(match.white or 0), "20:30")
    win(night, night.match("bea", "eva", Stage.KNOCKOUT), "bea", "20:50")
    win(night, night.match("ana", "fay", Stage.KNOCKOUT), "ana", "20:50")
    return night


def test_a_victim_leaves_the_last_chance_not_yet_begun_HGV_2_3_8_HGV_7_4_13() -> None:
    night = last_chance_night()
    state = night.state
    (last_chance,) = state.stage_matches(Stage.CONSOLATION)
    assert names(night, last_chance) == {"eva", "fay"}
    semi = night.match("dan", "bea", Stage.KNOCKOUT)
    attendance.director_forfeit(state, night.id("bea"), at("21:00"), match=semi)
    # eva plays the semi-final for bea; fay, alone, has no "Last Chance" left.
    assert names(night, semi) == {"dan", "eva"}
    assert not [m for m in state.stage_matches(Stage.CONSOLATION) if m.key]


def test_a_victim_playing_the_last_chance_does_not_step_in_HGV_2_3_8_HGV_7_4_13() -> None:
    night = last_chance_night()
    state = night.state
    (last_chance,) = state.stage_matches(Stage.CONSOLATION)
    win(night, last_chance, "eva", "21:00")
    semi = night.match("dan", "bea", Stage.KNOCKOUT)
    events = attendance.director_forfeit(state, night.id("bea"), at("21:10"), match=semi)
    assert not any(isinstance(e, PlayerReplaced) for e in events)
    assert semi.status is MatchStatus.FORFEIT and semi.winner == night.id("dan")
    assert last_chance.winner == night.id("eva")


def test_a_replacement_goes_when_a_correction_replays_its_match_HGV_2_3_8_HGV_4_8() -> None:
    """bea beat dan in the semi-final and forfeited the final: dan took her place. The
    director then corrects the play-in that sent bea there: the semi-final is replayed
    (dan against eva), so dan leaves the final until it is decided."""
    night = last_chance_night()
    state = night.state
    semi = night.match("dan", "bea", Stage.KNOCKOUT)
    win(night, semi, "bea", "21:00")
    win(night, night.match("cid", "ana", Stage.KNOCKOUT), "cid", "21:00")
    final = night.match("bea", "cid", Stage.KNOCKOUT)
    attendance.director_forfeit(state, night.id("bea"), at("21:30"), match=final)
    assert names(night, final) == {"dan", "cid"}
    play_in = night.match("bea", "eva", Stage.KNOCKOUT)
    eva_wins = FinalScore(0, play_in.length) if play_in.white == night.id("bea") else None
    assert eva_wins is not None
    corrections.correct(state, play_in.number, eva_wins, at("21:40"), confirmed=True)
    assert names(night, semi) == {"dan", "eva"} and not semi.is_final
    assert names(night, final) == {"cid"}


def test_a_re_paired_play_in_empties_the_rounds_it_fed_in_one_settle_HGV_4_8_HGV_7_3_1() -> None:
    """bea won the play-in and her semi-final, ana hers. The director then corrects
    fay-bea: bea wins group 2 and is seeded into ana's semi-final; cid and eva play the
    play-in again. The semi-final bea won through the play-in is replayed, so the final
    waits for both semi-finals: bea is not in it as well (found by test_finishable)."""
    night = last_chance_night()
    state = night.state
    win(night, night.match("dan", "bea", Stage.KNOCKOUT), "bea", "21:00")
    win(night, night.match("cid", "ana", Stage.KNOCKOUT), "ana", "21:00")
    final = night.match("bea", "ana", Stage.KNOCKOUT)
    fay_bea = night.match("fay", "bea", Stage.GROUP)
    bea_wins = FinalScore(0, fay_bea.length) if fay_bea.white == night.id("fay") else None
    assert bea_wins is not None
    corrections.correct(state, fay_bea.number, bea_wins, at("21:10"), confirmed=True)
    semis = [m for m in state.stage_matches(Stage.KNOCKOUT) if m.round_name == "semi_final"]
    assert [names(night, m) for m in semis] == [{"dan"}, {"bea", "ana"}]
    assert not any(m.is_final for m in semis)
    assert names(night, final) == set() and not final.is_final


def test_a_play_in_won_while_a_group_is_open_leaves_the_last_chance_HGV_4_8_HGV_7_4_13() -> None:
    """A group match is reopened; the director then corrects the play-in bea won: eva
    plays the semi-final. The "Last Chance" waits for the group to be reseeded, but eva
    is not left in it meanwhile as well (found by test_finishable)."""
    night = last_chance_night()
    state = night.state
    dan_eva = night.match("dan", "eva", Stage.GROUP)
    corrections.correct(state, dan_eva.number, "reopen", at("21:00"), confirmed=True)
    play_in = night.match("bea", "eva", Stage.KNOCKOUT)
    eva_wins = FinalScore(0, play_in.length) if play_in.white == night.id("bea") else None
    assert eva_wins is not None
    corrections.correct(state, play_in.number, eva_wins, at("21:10"), confirmed=True)
    assert names(night, night.match("dan", "eva", Stage.KNOCKOUT)) == {"dan", "eva"}
    (last_chance,) = [m for m in state.stage_matches(Stage.CONSOLATION) if m.key]
    assert names(night, last_chance) == {"fay"} and last_chance.start is None


def test_a_victim_who_stepped_in_twice_leaves_the_final_when_the_first_match_is_corrected_HGV_2_3_8_HGV_4_8() -> (  # noqa: E501
    None
):
    """eva stepped into the semi-final for bea (who beat her in the play-in and forfeited)
    and lost it to dan; dan forfeited the final, and eva, his last victim, stepped in
    again. The director then corrects the play-in: eva won it. The semi-final she played
    as a replacement is to be played again, so the final's side she took waits for it:
    she is never in two undecided matches (found by test_finishable)."""
    night, play_in, semi = eva_stands_in_for_bea()
    state = night.state
    win(night, semi, "dan", "21:20")
    win(night, night.match("ana", "fay", Stage.KNOCKOUT), "ana", "21:20")
    win(night, night.match("cid", "ana", Stage.KNOCKOUT), "cid", "21:40")
    final = night.match("dan", "cid", Stage.KNOCKOUT)
    attendance.director_forfeit(state, night.id("dan"), at("22:00"), match=final)
    assert names(night, final) == {"eva", "cid"}
    eva_wins = FinalScore(*reversed(night.score(play_in)))
    corrections.correct(state, play_in.number, eva_wins, at("22:10"), confirmed=True)
    assert play_in.winner == night.id("eva")
    undecided = [m for m in state.stage_matches(Stage.KNOCKOUT) if m.key and not m.is_final]
    holding_eva = [m.number for m in undecided if night.id("eva") in m.players]
    assert holding_eva == [semi.number], holding_eva
    assert names(night, final) == {"cid"}


def test_a_match_played_is_not_given_away_by_forfeit_HGV_2_3_5() -> None:
    """A forfeit on a semi-final already won changed nothing and was said to be recorded:
    it is refused, and the result stands (a correction reopens it first, HGV-4.8)."""
    night = semi_finals_played()
    semi = night.match("dan", "ana", Stage.KNOCKOUT)
    before = (semi.status, semi.winner, semi.white_score, semi.black_score)
    with pytest.raises(Refused) as refused:
        attendance.director_forfeit(night.state, night.id("dan"), at("21:10"), match=semi)
    assert refused.value.code == "forfeit_match_final"
    assert refused.value.params == {"match": semi.number}
    assert (semi.status, semi.winner, semi.white_score, semi.black_score) == before
