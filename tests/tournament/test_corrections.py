"""Corrections at any time, and everything that follows from them (HGV-4.8)."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tournament import attendance, corrections, due, forfeits, progress, reports
from tournament.events import (
    MatchesHeld,
    MatchFinished,
    MatchReset,
    PairingsConflict,
    PlacementsChanged,
    ResultCorrected,
    TournamentReopened,
)
from tournament.model import MatchStatus, Refused, Stage, TournamentStatus
from tournament.preset import load_preset
from tournament.scoring import FinalScore
from tournament.simulation import new_tournament, play_out, random_score
from tournament.state import Match, TournamentState

START = datetime(2026, 3, 6, 20, 0, tzinfo=UTC)
LATER = START + timedelta(days=1)


def finished(preset: str = "hgv-backgammon", players: int = 6, seed: int = 3) -> TournamentState:
    state = new_tournament(load_preset(preset), players, START, seed=seed)
    play_out(state, seed=seed)
    assert state.status is TournamentStatus.FINISHED
    return state


def groups_played(
    preset: str = "hgv-backgammon",
    players: int = 9,
    seed: int = 3,
    overrides: dict[str, object] | None = None,
) -> TournamentState:
    """Return a tournament whose groups are over and whose knockout was just drawn."""
    state = new_tournament(load_preset(preset, overrides), players, START, seed=seed)
    progress.draw(state, tuple(sorted(state.entries)), START)
    rng = random.Random(seed)
    for match in state.stage_matches(Stage.GROUP):
        if not match.is_final:
            reports.record_result(
                state, match, random_score(state.preset, match, rng), START, how="director"
            )
    assert state.status is TournamentStatus.KNOCKOUT
    return state


def final_of(state: TournamentState) -> Match:
    return next(
        m for m in state.stage_matches(Stage.KNOCKOUT) if m.round_name == "final" and m.key
    )


def won_by_other(match: Match) -> FinalScore:
    """Return a score the other player wins, same length."""
    if match.winner == match.white:
        return FinalScore(white=match.length - 1, black=match.length)
    return FinalScore(white=match.length, black=match.length - 1)


def points_of(state: TournamentState) -> dict[int, str]:
    return {p.player: p.points for p in state.placements}


def test_a_final_corrected_after_the_finish_changes_champion_places_and_points_HGV_4_8() -> None:
    """The story: the final corrected after the tournament finished (HGV-7.5 follows)."""
    state = finished()
    final = final_of(state)
    champion, finalist = final.winner, final.opponent_of(final.winner or 0)
    before = points_of(state)
    events = corrections.correct(state, final.number, won_by_other(final), LATER, reason="typo")
    assert state.status is TournamentStatus.FINISHED
    assert next(p.player for p in state.placements if p.place == 1) == finalist
    assert next(p.player for p in state.placements if p.place == 2) == champion
    after = points_of(state)
    assert finalist is not None and champion is not None
    assert float(after[finalist]) - float(before[finalist]) == pytest.approx(1.0 + 0.04)
    assert float(before[champion]) - float(after[champion]) == pytest.approx(1.0 + 0.04)
    changed = [e for e in events if isinstance(e, PlacementsChanged)]
    assert changed == [PlacementsChanged(at=LATER, champion=finalist, previous_champion=champion)]
    assert isinstance(events[0], ResultCorrected) and events[0].reason == "typo"


def test_reopening_the_final_withdraws_the_placements_until_it_is_played_again() -> None:
    """Issue 15.17: it undoes the finish, so it is refused until confirmed."""
    state = finished()
    final = final_of(state)
    placements = list(state.placements)
    champion = next(p.player for p in placements if p.place == 1)
    undone = corrections.impact(state, final.number, "reopen", LATER)
    assert undone == corrections.Impact(conflicts=(), unfinishes=True, champion=champion)
    with pytest.raises(Refused) as refused:
        corrections.correct(state, final.number, "reopen", LATER)
    assert refused.value.code == "correction_unfinishes"
    assert final.is_final and state.placements == placements  # nothing changed
    assert state.status is TournamentStatus.FINISHED
    events = corrections.correct(state, final.number, "reopen", LATER, confirmed=True)
    assert TournamentReopened(at=LATER) in events
    assert state.status is TournamentStatus.KNOCKOUT and state.placements == []
    assert final.status is MatchStatus.SCHEDULED and final.start == LATER
    assert final.white is not None
    reports.record_result(
        state, final, won_by_other_side(final, final.white), LATER, how="director"
    )
    assert state.status is TournamentStatus.FINISHED
    assert next(p.player for p in state.placements if p.place == 1) == final.white


def won_by_other_side(match: Match, winner: int) -> FinalScore:
    if winner == match.white:
        return FinalScore(white=match.length, black=0)
    return FinalScore(white=0, black=match.length)


def test_a_played_pairing_that_would_change_is_listed_and_changes_only_when_confirmed() -> None:
    state = finished(players=8)
    semi = next(m for m in state.stage_matches(Stage.KNOCKOUT) if m.round_name == "semi_final")
    final = final_of(state)
    assert corrections.plan(state, semi.number, won_by_other(semi), LATER) == (final.number,)
    # Issue 15.17: restarting the played final also takes back the night's placements.
    champion = next(p.player for p in state.placements if p.place == 1)
    assert corrections.impact(state, semi.number, won_by_other(semi), LATER) == (
        corrections.Impact(conflicts=(final.number,), unfinishes=True, champion=champion)
    )
    with pytest.raises(Refused) as refused:
        corrections.correct(state, semi.number, won_by_other(semi), LATER)
    assert refused.value.code == "correction_needs_confirmation"
    assert final.is_final  # nothing changed
    loser = semi.opponent_of(semi.winner or 0)
    events = corrections.correct(state, semi.number, won_by_other(semi), LATER, confirmed=True)
    assert loser in final.players and final.status is MatchStatus.SCHEDULED
    assert any(isinstance(e, MatchReset) and e.match == final.number for e in events)
    assert state.status is TournamentStatus.KNOCKOUT and state.placements == []


def test_a_group_correction_after_the_finish_moves_the_knockout_pairings() -> None:
    state = finished(players=6, seed=5)
    group = state.stage_matches(Stage.GROUP)[0]
    before = {m.number: m.players for m in state.stage_matches(Stage.KNOCKOUT)}
    conflicts = corrections.plan(state, group.number, won_by_other(group), LATER)
    # The group decides seeds; a changed order pairs other players in played matches.
    # Seed 5 is chosen so that it does: without conflicts this test would show nothing.
    assert conflicts
    trial = corrections.correct(state, group.number, won_by_other(group), LATER, confirmed=True)
    assert isinstance(trial[0], ResultCorrected)
    assert state.status is TournamentStatus.KNOCKOUT
    moved = {m.number: m.players for m in state.stage_matches(Stage.KNOCKOUT)}
    assert all(moved[n] != before[n] for n in conflicts)
    _complete(state, random.Random(1), LATER)
    assert_same_as_replay(state)


def bracket_view(state: TournamentState) -> dict[int, tuple[object, ...]]:
    return {
        m.number: (m.stage, m.key, m.white, m.black, m.status)
        for m in state.matches.values()
        if m.stage not in progress.GROUP_STAGES
    }


def test_reopening_a_group_match_after_the_draw_of_the_knockout_invents_nothing_HGV_4_8() -> None:
    """Issue 15.1: 8 qualifiers, nobody left for the "Last Chance" (HGV-7.4.13); a group
    match reopened once the quarter-finals are drawn keeps their pairings, holds them,
    makes no consolation bracket, and the night still ends with its champion."""
    state = new_tournament(load_preset("hgv-backgammon"), 9, START, seed=3)
    progress.draw(state, tuple(sorted(state.entries)), START)
    attendance.leave(state, 9, START, reason="left")  # forfeits the rest: 8 qualify
    rng = random.Random(3)
    for match in state.stage_matches(Stage.GROUP):
        if not match.is_final:
            reports.record_result(
                state, match, random_score(state.preset, match, rng), START, how="director"
            )
    assert state.status is TournamentStatus.KNOCKOUT and not state.stage_matches(Stage.CONSOLATION)
    bracket = bracket_view(state)
    group = next(m for m in state.stage_matches(Stage.GROUP) if 9 not in m.players)
    assert corrections.plan(state, group.number, "reopen", LATER) == ()
    events = corrections.correct(state, group.number, "reopen", LATER)
    assert bracket_view(state) == bracket  # no "? v ?", no "Last Chance" of qualifiers
    waiting = progress.held(state)
    assert waiting and all(state.matches[n].start is None for n in waiting)
    assert all(not state.matches[n].is_ready for n in waiting)
    assert [e for e in events if isinstance(e, MatchesHeld)] == [
        MatchesHeld(at=LATER, matches=tuple(sorted(waiting)), groups=(group.group or "",))
    ]
    reports.set_result(state, group.number, random_score(state.preset, group, rng), LATER)
    assert progress.held(state) == frozenset()
    assert not state.stage_matches(Stage.CONSOLATION)
    assert all(state.matches[n].is_ready for n in waiting)
    _complete(state, rng, LATER)
    assert state.status is TournamentStatus.FINISHED
    assert sum(p.place == 1 for p in state.placements) == 1
    assert all(p.points != "0.00" for p in state.placements)


def test_a_reopened_group_holds_only_the_matches_that_depend_on_it_HGV_4_8() -> None:
    """Without rematch avoidance, a seeded pairing of other groups' players goes on."""
    state = groups_played(
        players=12, seed=4, overrides={"group_size": 4, "knockout.avoid_group_rematch": False}
    )
    first = state.stage_matches(Stage.GROUP)[0]
    own = next(g for g in state.groups if g.name == first.group)
    corrections.correct(state, first.number, "reopen", LATER)
    waiting = progress.held(state)
    for match in state.stage_matches(*progress.MAIN_STAGES):
        seeded = [
            p
            for p, source in ((match.white, match.white_from), (match.black, match.black_from))
            if source is None
        ]
        depends = any(p in own.players for p in seeded)
        assert (match.number in waiting) == depends, match.key
        if seeded and not depends and match.white and match.black:
            assert match.is_ready


def test_void_takes_a_group_result_out_of_the_standings() -> None:
    state = finished(players=6)
    match = state.stage_matches(Stage.GROUP)[0]
    winner, loser = match.winner, match.opponent_of(match.winner or 0)
    assert winner is not None and loser is not None
    won, lost = match.score_of(winner), match.score_of(loser)
    group = next(g for g in state.groups if g.name == match.group)

    def record() -> dict[int, tuple[int, int, int, int]]:
        rows = progress.standings_of(state, group).rows
        return {r.player: (r.won, r.lost, r.points_for, r.points_against) for r in rows}

    before = record()
    corrections.correct(state, match.number, "void", LATER, confirmed=True)
    assert match.status is MatchStatus.VOID and match.result() is None
    after = record()
    w, lo = before[winner], before[loser]
    assert after[winner] == (w[0] - 1, w[1], w[2] - won, w[3] - lost)
    assert after[loser] == (lo[0], lo[1] - 1, lo[2] - lost, lo[3] - won)
    others = set(group.players) - {winner, loser}
    assert {p: after[p] for p in others} == {p: before[p] for p in others}
    _complete(state, random.Random(2), LATER)
    assert_same_as_replay(state)


def test_a_reopened_match_forgets_its_deadlines_and_penalties() -> None:
    state = finished(players=4)
    match = state.stage_matches(Stage.GROUP)[0]
    state.done[f"forfeit:{match.number}"] = START
    state.done[f"late:{match.number}:1"] = START
    corrections.correct(state, match.number, "reopen", LATER, confirmed=True)
    assert f"forfeit:{match.number}" not in state.done
    assert f"late:{match.number}:1" not in state.done
    assert match.start == LATER and match.status is MatchStatus.SCHEDULED


def tied_group() -> TournamentState:
    """Return a Navodari group of three that beat each other in a circle (NAV-TIE)."""
    state = new_tournament(load_preset("navodari-table"), 3, START, seed=1)
    progress.draw(state, tuple(sorted(state.entries)), START)
    beats = {(1, 2), (2, 3), (3, 1)}
    for match in state.stage_matches(Stage.GROUP):
        assert match.white is not None and match.black is not None
        white_wins = (match.white, match.black) in beats
        score = FinalScore(5, 3) if white_wins else FinalScore(3, 5)
        reports.record_result(state, match, score, START, how="director")
    return state


def test_a_void_extra_game_is_not_brought_back_NAV_TIE() -> None:
    state = tied_group()
    extra = state.stage_matches(Stage.TIEBREAK)
    assert len(extra) == 3  # the circle is level: one extra game per pair
    corrections.correct(state, extra[0].number, "void", LATER, confirmed=True)
    assert extra[0].status is MatchStatus.VOID
    with pytest.raises(Refused) as refused:
        corrections.correct(state, extra[0].number, FinalScore(1, 0), LATER, confirmed=True)
    assert refused.value.code == "extra_game_void"
    assert extra[0].status is MatchStatus.VOID


def test_a_correction_to_the_score_that_stands_is_refused_and_changes_nothing() -> None:
    """Announcing "corrected (was 7-5)" for 7-5 would tell the club something changed."""
    state = finished()
    final = final_of(state)
    same = FinalScore(white=final.white_score, black=final.black_score)
    placements = list(state.placements)
    with pytest.raises(Refused) as refused:
        corrections.correct(state, final.number, same, LATER)
    assert refused.value.code == "result_unchanged"
    assert refused.value.params["example"] == f"{final.length}-{final.length - 2}"  # it fits
    assert state.placements == placements
    # Standing at the example itself, the example is another score: the other way round.
    sample = FinalScore(white=final.length, black=final.length - 2)
    if (final.white_score, final.black_score) != (sample.white, sample.black):
        corrections.correct(state, final.number, sample, LATER, confirmed=True)
    with pytest.raises(Refused) as refused:
        corrections.correct(state, final.number, sample, LATER)
    assert refused.value.params["example"] == f"{final.length - 2}-{final.length}"


def test_a_result_a_director_sets_carries_the_reason_given_HGV_4_8() -> None:
    """A dispute settled says why; a result set without a reason carries none."""
    state = new_tournament(load_preset("hgv-backgammon"), 4, START, seed=1)
    progress.draw(state, tuple(sorted(state.entries)), START)
    first, second = state.stage_matches(Stage.GROUP)[:2]
    win = FinalScore(white=first.length, black=1)
    said = corrections.set_result(state, first.number, win, START, reason="scoresheet")
    finished = [e for e in said if isinstance(e, MatchFinished)]
    assert [(e.match, e.how, e.reason) for e in finished] == [
        (first.number, "director", "scoresheet")
    ]
    plain = corrections.set_result(state, second.number, win, START)
    assert [e.reason for e in plain if isinstance(e, MatchFinished)] == [""]


def test_reopening_an_unplayed_match_is_refused() -> None:
    state = new_tournament(load_preset("hgv-backgammon"), 4, START, seed=1)
    progress.draw(state, tuple(sorted(state.entries)), START)
    match = state.stage_matches(Stage.GROUP)[0]
    with pytest.raises(Refused) as refused:
        corrections.correct(state, match.number, "reopen", START)
    assert refused.value.code == "match_not_played"


# -- the property: corrections equal a replay of the corrected facts from scratch --


def _complete(state: TournamentState, rng: random.Random, at: datetime) -> None:
    """Play every open match with random scores until the tournament is finished."""
    for _ in range(200):
        if state.status is TournamentStatus.FINISHED:
            return
        wave = [m for m in state.matches.values() if m.is_ready and not m.is_final]
        if not wave:
            # Results that contradict a played pairing wait for a director, who reopens
            # the listed match (confirmed): it is played again between the right players.
            conflicts = corrections.conflicts(progress.settle(state, at))
            if not conflicts:
                raise AssertionError(f"stuck in {state.status}")
            corrections.correct(state, conflicts[0], "reopen", at, confirmed=True)
            continue
        for match in sorted(wave, key=lambda m: m.number):
            # A result earlier in the wave may hold or re-pair a later match.
            if not match.is_final and match.is_ready:
                reports.record_result(
                    state, match, random_score(state.preset, match, rng), at, how="director"
                )
    raise AssertionError("never finished")


def _fact_key(state: TournamentState, match: Match, seen: dict[tuple[object, ...], int]) -> object:
    if match.key is not None:
        return ("bracket", match.key)
    if match.stage is Stage.GROUP:
        return ("group", match.number)
    base = ("tiebreak", match.group, frozenset(match.players))
    seen[base] = seen.get(base, 0) + 1
    return (*base, seen[base])


def assert_same_as_replay(state: TournamentState) -> None:
    """Replay the corrected facts on a fresh tournament and compare what is derived."""
    facts: dict[object, Match] = {}
    seen: dict[tuple[object, ...], int] = {}
    for match in sorted(state.matches.values(), key=lambda m: m.number):
        if match.stage is Stage.TIEBREAK and match.status is MatchStatus.VOID:
            continue  # an extra game a correction made unnecessary
        if (
            match.stage is not Stage.GROUP
            and match.key is None
            and match.stage is not (Stage.TIEBREAK)
        ):
            continue  # a bracket a correction replaced
        facts[_fact_key(state, match, seen)] = match
    fresh = new_tournament(state.preset, len(state.entries), START, seed=state.seed)
    assert state.draw is not None
    progress.draw(fresh, state.draw.ranking, START)
    replay_seen: dict[tuple[object, ...], int] = {}
    for _ in range(200):
        if fresh.status is TournamentStatus.FINISHED:
            break
        wave = [m for m in fresh.matches.values() if m.is_ready and not m.is_final]
        assert wave, f"replay stuck in {fresh.status}"
        for match in sorted(wave, key=lambda m: m.number):
            fact = facts[_fact_key(fresh, match, replay_seen)]
            assert (fact.white, fact.black) == (match.white, match.black), match.key
            if fact.status is MatchStatus.VOID:
                match.status, match.finished_at = MatchStatus.VOID, LATER
                continue
            score = FinalScore(fact.white_score, fact.black_score, fact.tiebreaks, fact.lot_winner)
            reports.record_result(fresh, match, score, LATER, how="director", settle=False)
        progress.settle(fresh, LATER)
    assert fresh.status is TournamentStatus.FINISHED
    assert [(p.place, p.player, p.points) for p in fresh.placements] == [
        (p.place, p.player, p.points) for p in state.placements
    ]
    assert {g: t.order for g, t in progress.all_standings(fresh).items()} == {
        g: t.order for g, t in progress.all_standings(state).items()
    }


CHANGES = st.lists(
    st.tuples(st.integers(0, 10**6), st.sampled_from(["score", "void", "reopen"])),
    min_size=1,
    max_size=4,
)


def in_knockout(preset: str, players: int, seed: int, waves: int) -> TournamentState:
    """Return a tournament `waves` rounds of results into its knockout (or finished)."""
    state = new_tournament(load_preset(preset), players, START, seed=seed)
    progress.draw(state, tuple(sorted(state.entries)), START)
    rng = random.Random(seed)
    played_in_knockout = 0
    while state.status is not TournamentStatus.FINISHED:
        if state.status is TournamentStatus.KNOCKOUT:
            if played_in_knockout == waves:
                break
            played_in_knockout += 1
        wave = [m for m in state.matches.values() if m.is_ready and not m.is_final]
        for match in sorted(wave, key=lambda m: m.number):
            score = random_score(state.preset, match, rng)
            reports.record_result(state, match, score, START, how="director", settle=False)
        progress.settle(state, START)
    return state


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@example(  # a tie voided away, then another tie among three: an old void game is no round
    preset="navodari-table",
    players=9,
    seed=524289,
    waves=2,
    changes=[(0, "score"), (2471, "void"), (62034, "score"), (2471, "score")],
)
@example(  # the first correction replaces the bracket; the second picks a replaced match
    preset="hgv-backgammon", players=7, seed=2, waves=2, changes=[(5931, "score"), (712, "score")]
)
@given(
    preset=st.sampled_from(["hgv-backgammon", "navodari-table"]),
    players=st.integers(4, 10),
    seed=st.integers(0, 10**6),
    waves=st.sampled_from([0, 1, 2, 99]),
    changes=CHANGES,
)
def test_corrections_equal_a_replay_of_the_corrected_facts_HGV_4_8(
    preset: str, players: int, seed: int, waves: int, changes: list[tuple[int, str]]
) -> None:
    """For any tournament, from the knockout's draw (`waves` rounds into it) to its
    finish, and any corrections and reopenings: derived = replayed from scratch."""
    state = in_knockout(preset, players, seed, waves)
    rng = random.Random(seed)
    at = LATER
    for pick, kind in changes:
        candidates = sorted(
            (
                m
                for m in state.matches.values()
                if m.is_ready
                and progress.touched(m)
                and not (m.stage is Stage.TIEBREAK and m.status is MatchStatus.VOID)
            ),
            key=lambda m: m.number,
        )
        if not candidates:
            continue
        match = candidates[pick % len(candidates)]
        if kind == "void" and match.stage is not Stage.GROUP:
            # A bracket match needs a winner (void waits for a director); a voided
            # extra game is not told apart from one a correction made unnecessary.
            kind = "score"
        change: corrections.Change
        if kind == "score":
            change = random_score(state.preset, match, rng)
        elif kind == "void":
            change = "void" if match.status is not MatchStatus.VOID else "reopen"
        else:
            change = "reopen"
        try:
            corrections.correct(state, match.number, change, at, confirmed=True)
        except Refused as refused:
            # The score that stands: a no-op. A match of a bracket an earlier correction
            # replaced is out of the tournament: refused (HGV-4.8).
            replaced = match.stage in corrections.BRACKET_STAGES and match.key is None
            assert refused.code == ("match_replaced" if replaced else "result_unchanged")
            continue
        due.sweep(state, at)
        at += timedelta(minutes=1)
    _complete(state, rng, at)
    assert_same_as_replay(state)


def test_deciding_a_reopened_group_match_that_undoes_a_played_pairing_asks_first_HGV_4_8() -> None:
    """Issue 15.1: the group result would seed another player into a knockout match
    already played; the director is asked, and confirmed it starts afresh."""
    state = in_knockout("hgv-backgammon", 5, 0, 1)
    group = state.matches[3]
    assert group.stage is Stage.GROUP and group.is_final
    corrections.correct(state, group.number, "reopen", LATER)
    length = group.length
    scores = [FinalScore(length, 0), FinalScore(0, length)]
    found = {s: corrections.open_conflicts(state, group.number, s, LATER) for s in scores}
    undoing = next(s for s in scores if found[s])
    before = bracket_view(state)
    with pytest.raises(Refused) as refused:
        corrections.set_result(state, group.number, undoing, LATER)
    assert refused.value.code == "correction_needs_confirmation"
    assert not group.is_final and bracket_view(state) == before  # nothing changed
    events = corrections.set_result(state, group.number, undoing, LATER, confirmed=True)
    reset = {e.match for e in events if isinstance(e, MatchReset)}
    assert set(found[undoing]) <= reset
    assert all(state.matches[n].status is MatchStatus.SCHEDULED for n in found[undoing])
    _complete(state, random.Random(0), LATER)
    assert_same_as_replay(state)


def test_a_bracket_match_left_without_a_winner_is_named_until_it_has_one_HGV_4_8() -> None:
    """A knockout match voided, or lost by both players (CLUB-BOTH-ABSENT), sends nobody
    on: the bracket waits there, and `without_winner` names it for the director."""
    state = groups_played()
    first, second = sorted(
        (m for m in state.stage_matches(Stage.KNOCKOUT) if m.is_ready and m.key),
        key=lambda m: m.number,
    )[:2]
    assert progress.without_winner(state) == []
    reports.record_result(state, first, won_by_other(first), LATER, how="director")
    corrections.correct(state, first.number, "void", LATER, confirmed=True)
    forfeits.forfeit_match(state, second, second.players, LATER, reason="late")
    assert second.status is MatchStatus.DOUBLE_FORFEIT
    assert [m.number for m in progress.without_winner(state)] == [first.number, second.number]
    corrections.correct(state, first.number, won_by_other(first), LATER, confirmed=True)
    assert [m.number for m in progress.without_winner(state)] == [second.number]


def test_a_contradicted_pairing_is_announced_once_while_it_stands_HGV_4_8() -> None:
    """A player's accepted result contradicted a played knockout pairing: every later
    settle listed it again, and the club's channel read the same warning at each command.
    It is said once; /status keeps showing it; decided, it is forgotten."""
    state = in_knockout("hgv-backgammon", 5, 0, 1)
    group = state.matches[3]
    corrections.correct(state, group.number, "reopen", LATER)
    length = group.length
    scores = [FinalScore(length, 0), FinalScore(0, length)]
    undoing = next(s for s in scores if corrections.open_conflicts(state, group.number, s, LATER))
    first = progress.said_once(
        state, reports.set_result(state, group.number, undoing, LATER), LATER
    )
    (said,) = [e for e in first if isinstance(e, PairingsConflict)]
    again = progress.said_once(state, progress.settle(state, LATER), LATER)
    assert not any(isinstance(e, PairingsConflict) for e in again)
    assert progress.standing_conflicts(state, LATER) == said.matches
    corrections.correct(state, said.matches[0], "reopen", LATER, confirmed=True)
    progress.said_once(state, progress.settle(state, LATER), LATER)
    assert not any(key.startswith(progress.CONFLICT) for key in state.done)
