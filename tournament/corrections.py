"""A director's corrections at any time, with everything that follows (HGV-4.8).

`/result 5 3-1`, `/result 5 void` and `/reopen 5` change one fact, a match's result;
`progress.settle` then derives the rest again from the facts: standings, extra games,
qualifiers, the knockout pairings not yet played, placements and ranking points. A
pairing already under way or played that would change is a conflict: `plan` lists
those matches so the director can confirm, and only a confirmed correction starts them
afresh between the new players.
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Literal

from tournament import attendance, progress, reports
from tournament.events import (
    Event,
    MatchFinished,
    PairingsConflict,
    ResultCorrected,
    TournamentReopened,
)
from tournament.model import MatchStatus, PlayerId, Refused, Stage, TournamentStatus
from tournament.scoring import FinalScore, example_score
from tournament.state import Match, TournamentState

Change = FinalScore | Literal["void", "reopen"]

BRACKET_STAGES = (Stage.KNOCKOUT, Stage.THIRD_PLACE, Stage.CONSOLATION)


@dataclass(frozen=True, slots=True)
class Impact:
    """What a correction would undo, for the director to confirm first (issue 15.17).

    `conflicts`: matches under way or played that would start afresh between other
    players. `unfinishes`: the tournament is finished and would not be any more, its
    placements and ranking points taken back until the match is final again;
    `champion` is the champion they name now.
    """

    conflicts: tuple[int, ...] = ()
    unfinishes: bool = False
    champion: PlayerId | None = None

    @property
    def destructive(self) -> bool:
        return bool(self.conflicts) or self.unfinishes


def asked_version(state: TournamentState, match: Match, impact: Impact) -> str:
    """Return a short mark of what a confirmation was asked about: the match as it stood
    and what the change would undo. A confirm button carries it; pressed after either
    changed, it no longer fits and the director is asked again (a capability acts on the
    version it was offered for)."""
    facts = (
        state.id,
        match.number,
        match.status.value,
        match.white,
        match.black,
        match.white_score,
        match.black_score,
        match.report_seq,
        impact.conflicts,
        impact.unfinishes,
        impact.champion,
    )
    return hashlib.sha256(repr(facts).encode()).hexdigest()[:10]


def impact(state: TournamentState, number: int, change: Change, at: datetime) -> Impact:
    """Return what the change would undo, trying it on a copy."""
    trial = copy.deepcopy(state)
    events = _apply(trial, number, change, at, reason="", reset=False)
    champion = next((p.player for p in state.placements if p.place == 1), None)
    found = conflicts(events)
    # A finished tournament whose played match would start afresh is not finished then.
    restarts = bool(found) and state.status is TournamentStatus.FINISHED
    return Impact(
        conflicts=found,
        unfinishes=restarts or any(isinstance(e, TournamentReopened) for e in events),
        champion=champion,
    )


def plan(state: TournamentState, number: int, change: Change, at: datetime) -> tuple[int, ...]:
    """Return the matches under way or played whose pairing the change would alter."""
    return impact(state, number, change, at).conflicts


def correct(
    state: TournamentState,
    number: int,
    change: Change,
    at: datetime,
    *,
    reason: str = "",
    confirmed: bool = False,
) -> list[Event]:
    """Correct, void or reopen match `number` and derive everything again.

    Refuses ("correction_needs_confirmation") when matches already under way or played
    would get other players, and ("correction_unfinishes") when a finished tournament
    would lose its placements and ranking points, unless `confirmed`: then the matches
    start afresh, and the placements return once the tournament is complete again.
    """
    undone = Impact() if confirmed else impact(state, number, change, at)
    if undone.conflicts:
        raise Refused(
            "correction_needs_confirmation",
            match=number,
            matches=", ".join(map(str, undone.conflicts)),
        )
    if undone.unfinishes:
        raise Refused("correction_unfinishes", match=number, tournament=state.name)
    return _apply(state, number, change, at, reason=reason, reset=True)


def set_result(
    state: TournamentState,
    number: int,
    score: FinalScore,
    at: datetime,
    *,
    confirmed: bool = False,
    reason: str = "",
) -> list[Event]:
    """Give an open match its result as a director (HGV-4.8), played pairings first.

    A group match reopened after knockout matches were played may, once decided, seed
    other players into them: that undoes those matches, so it is refused
    ("correction_needs_confirmation") unless `confirmed`; then they start afresh
    between the players the results give. The `reason` given goes with the result.
    """
    if not confirmed:
        found = open_conflicts(state, number, score, at)
        if found:
            raise Refused(
                "correction_needs_confirmation",
                match=number,
                matches=", ".join(map(str, found)),
            )
        events = reports.set_result(state, number, score, at)
    else:
        match = state.matches.get(number)
        if match is None:
            raise Refused("no_such_match", match=number)
        if not match.is_ready:
            raise Refused("match_not_ready", match=number)
        checked = reports.checked_score(state, match, score, floor=False)
        events = reports.record_result(state, match, checked, at, how="director", settle=False)
        events += progress.settle(state, at, reset=True)
    # Both played it, so both are at the venue (CLUB-PRESENCE), as a player who reports
    # is: a player the director entered and forgot to mark present is not late for the
    # next match, nor a no-show after playing.
    for player in state.matches[number].players:
        attendance.at_the_table(state, player, at)
    return _with_reason(events, number, reason)


def _with_reason(events: list[Event], number: int, reason: str) -> list[Event]:
    """Return the events with the director's reason on the result of match `number`."""
    if not reason:
        return events
    return [
        replace(e, reason=reason) if isinstance(e, MatchFinished) and e.match == number else e
        for e in events
    ]


def open_conflicts(
    state: TournamentState, number: int, score: FinalScore, at: datetime
) -> tuple[int, ...]:
    """Return the played matches an open match's result would give other players."""
    trial = copy.deepcopy(state)
    return conflicts(reports.set_result(trial, number, score, at))


def _apply(
    state: TournamentState,
    number: int,
    change: Change,
    at: datetime,
    *,
    reason: str,
    reset: bool,
) -> list[Event]:
    match = state.matches.get(number)
    if match is None:
        raise Refused("no_such_match", match=number)
    if match.stage in BRACKET_STAGES and match.key is None:
        # A match of a bracket the results replaced (or a "Last Chance" that no longer
        # takes place): brought back, it would seed its players a second time.
        raise Refused("match_replaced", match=number)
    if not match.is_ready:
        raise Refused("match_not_ready", match=number)
    if match.stage is Stage.TIEBREAK and match.status is MatchStatus.VOID and change != "void":
        # Extra games follow the tie (NAV-TIE): a void one is not brought back, the
        # tie schedules its own games again when it needs them.
        raise Refused("extra_game_void", match=number)
    before = (match.white_score, match.black_score)
    before_tiebreaks, before_lot = match.tiebreaks, match.lot_winner
    was = match.status
    forfeiters = match.forfeited_by
    if change == "reopen":
        if not progress.touched(match):
            raise Refused("match_not_played", match=number)
        progress.restart(state, match, at)
    elif change == "void":
        if match.status is MatchStatus.VOID:
            raise Refused("match_already_void", match=number)
        match.status = MatchStatus.VOID
        match.winner = None
        match.forfeited_by = frozenset()
        match.finished_at = at
        match.report = None
        match.disputed_by = None
    else:
        checked = reports.checked_score(state, match, change, floor=False)
        stands = (match.white_score, match.black_score, match.tiebreaks, match.lot_winner)
        if match.status is MatchStatus.FINISHED and stands == (
            checked.white,
            checked.black,
            checked.tiebreaks,
            checked.lot_winner,
        ):
            # Nothing to correct: saying "corrected" would tell the club something changed.
            mine, theirs = example_score(state.preset.game, match.length)
            if (match.white_score, match.black_score) == (mine, theirs):
                mine, theirs = theirs, mine  # another score than the one that stands
            raise Refused(
                "result_unchanged",
                match=number,
                white=match.white_score,
                black=match.black_score,
                example=f"{mine}-{theirs}",
            )
        reports.record_result(state, match, checked, at, how="director", settle=False)
    _clear_forfeit_marks(state, match, forfeiters)
    after = (match.white_score, match.black_score)
    kind = change if isinstance(change, str) else "score"
    events: list[Event] = [
        ResultCorrected(
            at=at,
            match=number,
            change=kind,
            before=before,
            after=after,
            was=was,
            reason=reason,
            before_tiebreaks=before_tiebreaks,
            before_lot=before_lot,
        )
    ]
    return events + progress.settle(state, at, reset=reset)


def _clear_forfeit_marks(
    state: TournamentState, match: Match, forfeiters: frozenset[PlayerId]
) -> None:
    """Drop the HGV-2.3.8 mark of a knockout forfeit the correction took away."""
    if match.stage not in progress.MAIN_STAGES:
        return
    for player in forfeiters - match.forfeited_by:
        others = any(
            player in m.forfeited_by and m.is_final
            for m in state.stage_matches(*progress.MAIN_STAGES)
        )
        if not others:
            state.entries[player].knockout_forfeit = False


def conflicts(events: Sequence[Event]) -> tuple[int, ...]:
    """Return the matches the `PairingsConflict` events list, once each, in order."""
    found: list[int] = []
    for event in events:
        if isinstance(event, PairingsConflict):
            found.extend(n for n in event.matches if n not in found)
    return tuple(found)
