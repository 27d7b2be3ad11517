"""Corrections at any time, and everything that follows from them (HGV-4.8)."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournament import corrections, due, progress, reports
from tournament.events import (
    MatchReset,
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
    state = finished()
    final = final_of(state)
    events = corrections.correct(state, final.number, "reopen", LATER)
    assert TournamentReopened(at=LATER) in events
    assert state.status is TournamentStatus.KNOCKOUT and state.placements == []
    assert final.status is MatchStatus.SCHEDULED and final.start == LATER
    assert final.white is not None
    reports.finish(state, final, won_by_other_side(final, final.white), LATER, how="director")
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
    conflicts = corrections.plan(state, group.number, won_by_other(group), LATER)
    # The group decides seeds; a changed order pairs other players in played matches.
    trial = corrections.correct(state, group.number, won_by_other(group), LATER, confirmed=True)
    assert isinstance(trial[0], ResultCorrected)
    if conflicts:
        assert state.status is TournamentStatus.KNOCKOUT
    _complete(state, random.Random(1), LATER)
    assert_same_as_replay(state)


def test_void_takes_a_group_result_out_of_the_standings() -> None:
    state = finished(players=6)
    match = state.stage_matches(Stage.GROUP)[0]
    corrections.correct(state, match.number, "void", LATER, confirmed=True)
    assert match.status is MatchStatus.VOID and match.result() is None
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


def test_a_void_extra_game_is_not_brought_back_NAV_TIE() -> None:
    state = finished("navodari-table", 4, 1)
    extra = next(iter(state.stage_matches(Stage.TIEBREAK)), None)
    if extra is None:
        pytest.skip("this draw has no extra games")
    corrections.correct(state, extra.number, "void", LATER, confirmed=True)
    with pytest.raises(Refused) as refused:
        corrections.correct(state, extra.number, FinalScore(1, 0), LATER, confirmed=True)
    assert refused.value.code == "extra_game_void"


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
            raise AssertionError(f"stuck in {state.status}")
        for match in sorted(wave, key=lambda m: m.number):
            if not match.is_final:
                reports.finish(
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
            reports.finish(fresh, match, score, LATER, how="director", settle=False)
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


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    preset=st.sampled_from(["hgv-backgammon", "navodari-table"]),
    players=st.integers(4, 10),
    seed=st.integers(0, 10**6),
    changes=CHANGES,
)
def test_corrections_equal_a_replay_of_the_corrected_facts_HGV_4_8(
    preset: str, players: int, seed: int, changes: list[tuple[int, str]]
) -> None:
    """For any finished tournament and any corrections, derived = replayed from scratch."""
    state = finished(preset, players, seed)
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
            assert refused.code == "result_unchanged"  # the score that stands: a no-op
            continue
        due.sweep(state, at)
        at += timedelta(minutes=1)
    _complete(state, rng, at)
    assert_same_as_replay(state)
