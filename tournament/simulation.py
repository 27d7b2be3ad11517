"""Play a whole tournament in memory with seeded random results.

Used by the core benchmark and by tests that need a finished tournament: every step
goes through the same rule functions a real night uses (draw, results, knockout,
placements and ranking points); only the scores are invented.
"""

from __future__ import annotations

import random
from datetime import date, datetime, timedelta
from itertools import islice

from tournament import attendance, progress, reports
from tournament.model import FINAL_STATUSES, MatchStatus, TournamentStatus
from tournament.preset import Preset
from tournament.scoring import FinalScore
from tournament.state import Match, TournamentState


def new_tournament(preset: Preset, players: int, start: datetime, *, seed: int) -> TournamentState:
    """Return a tournament whose `players` entries (ids 1..n) confirmed and checked in."""
    state = TournamentState(
        id=1,
        name="Simulated Cup",
        preset=preset,
        start=start,
        seed=seed,
        created_at=start - timedelta(days=7),
    )
    for player in range(1, players + 1):
        born = date(1940 + player % 60, 1 + player % 12, 1 + player % 28)
        attendance.register(state, player, start - timedelta(days=6), by_director=True, born=born)
        attendance.confirm(state, player, start - timedelta(days=2))
        attendance.check_in(state, player, start - timedelta(minutes=30))
    return state


def random_score(preset: Preset, match: Match, rng: random.Random) -> FinalScore:
    """Return a plausible final score for `match` under the preset's game."""
    length = match.length
    if preset.game == "draughts":
        winner = rng.randint(length + 1, 2 * length)
        scores = (winner, 2 * length - winner)
    else:
        # randrange(n) draws as randint(0, n - 1) does, without a call on top.
        scores = (length, rng.randrange(length))
    if rng.random() < 0.5:
        return FinalScore(scores[1], scores[0])  # white, black
    return FinalScore(scores[0], scores[1])


def play_out(state: TournamentState, *, seed: int, ranking: tuple[int, ...] = ()) -> None:
    """Draw the groups and play every match until the tournament is finished."""
    rng = random.Random(seed)
    at = state.start
    if state.status is TournamentStatus.REGISTRATION:
        progress.draw(state, ranking or tuple(sorted(state.entries)), at)
    matches = state.matches
    # The matches not final yet, in the order `matches` holds them: each wave is those of
    # them ready to play, as a scan of every match would find them. A settle without
    # `reset` never makes a final match open again (it restarts only untouched matches,
    # or voids them), and matches are only ever added, at the end: the final ones stay
    # out, and the new ones are read once.
    waiting: list[Match] = []
    seen = 0
    while state.status is not TournamentStatus.FINISHED:
        if len(matches) != seen:
            waiting.extend(islice(matches.values(), seen, None))
            seen = len(matches)
        waiting = [m for m in waiting if m.status not in FINAL_STATUSES]
        wave = [m for m in waiting if m.is_ready and m.status is not MatchStatus.DISPUTED]
        if not wave:
            raise RuntimeError(f"stuck in {state.status}: no match can be played")
        at += timedelta(minutes=state.preset.groups.round_minutes)
        for match in wave:
            reports.record_result(
                state,
                match,
                random_score(state.preset, match, rng),
                at,
                how="director",
                settle=False,
            )
        progress.settle(state, at)
