"""Director overrides of the lateness clock (CLUB-BOTH-ABSENT): pause, resume, cancel.

Every override is a director's act; the use case logs who and why.
"""

from __future__ import annotations

from datetime import datetime

from tournament.model import MatchStatus, PlayerId, Refused
from tournament.state import Match, Penalty, Span, TournamentState


def pause(state: TournamentState, number: int, at: datetime) -> Match:
    """Stop a match's lateness clock from `at`."""
    match = _waiting_match(state, number)
    if match.is_paused:
        raise Refused("already_paused", match=number)
    match.pauses.append(Span(start=at))
    return match


def resume(state: TournamentState, number: int, at: datetime) -> Match:
    """Let a paused lateness clock run again from `at`."""
    match = _waiting_match(state, number)
    if not match.is_paused:
        raise Refused("not_paused", match=number)
    match.pauses[-1].end = at
    return match


def cancel_penalties(state: TournamentState, number: int) -> list[Penalty]:
    """Cancel the lateness points of a match that is not final yet; return them."""
    match = state.matches.get(number)
    if match is None:
        raise Refused("no_such_match", match=number)
    if match.is_final:
        raise Refused("match_already_final", match=number)
    cancelled = [p for p in state.penalties.values() if p.match == number and not p.cancelled]
    if not cancelled:
        raise Refused("no_penalties", match=number)
    for penalty in cancelled:
        penalty.cancelled = True
        if penalty.against == match.white:
            match.black_score -= penalty.points
        else:
            match.white_score -= penalty.points
    return cancelled


def penalised_match(state: TournamentState, player: PlayerId) -> tuple[int, int] | None:
    """Return the open match where lateness points stand against `player`, and how many:
    what a director can still cancel (CLUB-BOTH-ABSENT)."""
    points: dict[int, int] = {}
    for penalty in state.penalties.values():
        if penalty.against == player and not penalty.cancelled:
            match = state.matches.get(penalty.match)
            if match is not None and not match.is_final:
                points[penalty.match] = points.get(penalty.match, 0) + penalty.points
    if not points:
        return None
    number = min(points)
    return number, points[number]


def _waiting_match(state: TournamentState, number: int) -> Match:
    match = state.matches.get(number)
    if match is None:
        raise Refused("no_such_match", match=number)
    if match.is_final or match.status is not MatchStatus.SCHEDULED:
        raise Refused("match_under_way", match=number)
    return match
