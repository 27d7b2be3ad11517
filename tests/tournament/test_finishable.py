"""A night can always be finished, whatever happened on it (HGV-4.8, HGV-2.3.5, HGV-2.3.8).

Any sequence of results, director corrections (a new score, void, reopen), departures
and returns, director forfeits, players away and lateness: afterwards the director can
still drive the tournament to FINISHED by giving results to the ready matches (and
deciding a pairings conflict, or a bracket match left without a winner, a double
forfeit or a void one, the way the bot tells them to). A
command may be refused, with a reason of its own; a rule of the bracket itself
(`bracket_...`) refusing is a settle that would refuse every later command too.
No player is in two undecided bracket matches at once (unless a pairings conflict waits
for the director), and every place is given once.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from itertools import pairwise

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournament import attendance, corrections, due, progress, reports
from tournament.events import Event
from tournament.model import EntryStatus, MatchStatus, Refused, Stage, TournamentStatus
from tournament.preset import load_preset, preset_names
from tournament.simulation import random_score
from tournament.state import Match, TournamentState

START = datetime(2026, 3, 6, 20, 0, tzinfo=UTC)
BRACKET_STAGES = (Stage.KNOCKOUT, Stage.THIRD_PLACE, Stage.CONSOLATION)
# Results weigh most: a night reaches its knockout, where departures and corrections
# matter most.
KINDS = ("result",) * 5 + ("correct", "leave", "back", "forfeit", "away", "wait")

Action = tuple[str, int]


def night(preset: str, players: int, absent: int, seed: int) -> TournamentState:
    """Return a drawn tournament; the players in the `absent` bit mask confirmed but are
    not here (CLUB-NO-SHOW when nobody checks them in)."""
    state = TournamentState(
        id=1, name="Cup", preset=load_preset(preset), start=START, seed=seed, created_at=START
    )
    for player in range(1, players + 1):
        born = date(1950 + player, 1, 1)
        registered = START - timedelta(days=3)
        attendance.register(state, player, registered, by_director=True, born=born)
        attendance.confirm(state, player, registered)
        if not absent >> player & 1:
            attendance.check_in(state, player, START - timedelta(minutes=30))
    progress.draw(state, tuple(range(1, players + 1)), START)
    return state


def act(state: TournamentState, kind: str, pick: int, at: datetime) -> list[Event]:
    """Apply one director's or player's act, chosen by `kind` and `pick`."""
    rng = random.Random(pick)
    entries = sorted(state.entries.values(), key=lambda e: e.player)
    active = [e.player for e in entries if e.status is EntryStatus.ACTIVE]
    gone = [e.player for e in entries if e.status is not EntryStatus.ACTIVE]
    if kind == "result":
        ready = open_matches(state)
        if not ready:
            return []
        match = ready[pick % len(ready)]
        return reports.set_result(state, match.number, random_score(state.preset, match, rng), at)
    if kind == "correct":
        played = sorted(
            (m for m in state.matches.values() if m.is_ready and m.is_final),
            key=lambda m: m.number,
        )
        if not played:
            return []
        match = played[pick % len(played)]
        change: corrections.Change = random_score(state.preset, match, rng)
        if rng.random() < 0.4:
            change = "reopen" if rng.random() < 0.5 else "void"
        return corrections.correct(state, match.number, change, at, confirmed=True)
    if kind == "leave" and active:
        return attendance.leave(state, active[pick % len(active)], at, reason="left")
    if kind == "back" and gone:
        return attendance.reinstate(state, gone[pick % len(gone)], at)
    if kind == "forfeit" and active:
        return attendance.director_forfeit(state, active[pick % len(active)], at)
    if kind == "away" and active:
        entry = state.entries[active[pick % len(active)]]
        if entry.present_now():
            attendance.mark_away(state, entry.player, at)
        else:
            attendance.check_in(state, entry.player, at, director=True)
        return []
    if kind == "wait":
        return due.sweep(state, at)
    return []


def open_matches(state: TournamentState) -> list[Match]:
    """Return the matches to play now, by number."""
    return sorted(
        (m for m in state.matches.values() if m.is_ready and not m.is_final),
        key=lambda m: m.number,
    )


def attempt(
    state: TournamentState, change: Callable[[TournamentState], object]
) -> TournamentState:
    """Return the state after `change`, or as it was when a rule refused it (nothing is
    saved then); a refusal from the bracket's own rules fails the test."""
    trial = copy.deepcopy(state)
    try:
        change(trial)
    except Refused as refused:
        assert not refused.code.startswith("bracket_"), refused
        return state
    if not corrections.conflicts(progress.settle(copy.deepcopy(trial), START)):
        # While a pairings conflict waits for a director, nothing more is derived.
        assert_no_player_twice(trial)
    return trial


def decide_conflict(state: TournamentState, at: datetime) -> TournamentState:
    """Return the state after the director decided a pairings conflict waiting for them
    (reopening a contradicted match, confirmed), as the bot asks them to first.

    Not modelled: acts on the bracket while a conflict waits. Nothing is derived then,
    and a forfeit or a return on the stale pairings can still make a settle refuse.
    """
    conflicted = corrections.conflicts(progress.settle(copy.deepcopy(state), at))
    if not conflicted:
        return state
    return attempt(
        state, lambda s: corrections.correct(s, conflicted[0], "reopen", at, confirmed=True)
    )


def assert_no_player_twice(state: TournamentState) -> None:
    """No player is in two undecided bracket matches (main, third place, "Last Chance")."""
    seen: dict[int, int] = {}
    for match in state.stage_matches(*BRACKET_STAGES):
        if match.key is None or match.is_final:
            continue
        for player in match.players:
            assert player not in seen, (player, seen[player], match.number)
            seen[player] = match.number


def finish(state: TournamentState, at: datetime) -> TournamentState:
    """Drive the night to its end as a director would: results for ready matches, and a
    confirmed decision where the bot asks for one."""
    for _ in range(600):
        at += timedelta(minutes=1)
        if state.status is TournamentStatus.FINISHED:
            return state
        ready = open_matches(state)
        if ready:
            match = ready[0]
            score = random_score(state.preset, match, random.Random(match.number))
            reports.set_result(state, match.number, score, at)
            assert_no_player_twice(state)
            continue
        events = progress.settle(state, at)
        conflicted = corrections.conflicts(events)
        stuck = [
            m
            for m in state.stage_matches(*BRACKET_STAGES)
            if m.key is not None and m.status in (MatchStatus.DOUBLE_FORFEIT, MatchStatus.VOID)
        ]
        if conflicted:
            corrections.correct(state, conflicted[0], "reopen", at, confirmed=True)
        elif stuck:
            score = random_score(state.preset, stuck[0], random.Random(stuck[0].number))
            corrections.correct(state, stuck[0].number, score, at, confirmed=True)
        else:
            raise AssertionError(f"stuck in {state.status}: {events}")
    raise AssertionError("not finished after 600 results")


def assert_places_given_once(state: TournamentState) -> None:
    """Every placed player once, one champion at most, and a place shared by n players
    stands for n places no one else holds (PLACE-SHARE); a gap is a place whose holder
    has none (a knockout forfeiter, HGV-2.3.8)."""
    players = [p.player for p in state.placements]
    assert len(players) == len(set(players)), players
    places = sorted(p.place for p in state.placements if p.place is not None)
    counts = {place: places.count(place) for place in places}
    # None when the final's winner never came (a night of no-shows, CLUB-NO-SHOW).
    assert counts.get(1, 1) == 1, counts
    shared = sorted(counts)
    for place, after in pairwise(shared):
        assert after >= place + counts[place], (place, counts)


def play(preset: str, players: int, absent: int, seed: int, actions: list[Action]) -> None:
    state = night(preset, players, absent, seed)
    at = START
    for kind, pick in actions:
        at += timedelta(minutes=1 + (pick % 90 if kind == "wait" else 0))
        state = decide_conflict(state, at)
        state = attempt(state, lambda s, k=kind, p=pick, t=at: act(s, k, p, t))
    state = finish(state, at)
    assert_places_given_once(state)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    preset=st.sampled_from(preset_names()),
    players=st.integers(2, 14),
    absent=st.integers(0, 2**15 - 1).map(lambda m: m if m % 3 == 0 else 0),
    seed=st.integers(0, 10**6),
    actions=st.lists(
        st.tuples(st.sampled_from(KINDS), st.integers(0, 10**6)), min_size=20, max_size=100
    ),
)
def test_every_night_can_be_finished_HGV_4_8_HGV_2_3_5_HGV_2_3_8(
    preset: str, players: int, absent: int, seed: int, actions: list[Action]
) -> None:
    """Whatever results, corrections, departures, returns, forfeits and lateness came
    before, the director can drive the night to FINISHED with every place given once."""
    play(preset, players, absent, seed, actions)
