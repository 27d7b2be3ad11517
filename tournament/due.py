"""What state plus time says is due: reminders, lateness steps, forfeits, time-outs.

`due_actions(state, now)` lists everything that should have happened by `now` and has
not been applied yet, each under a unique key, in the order it fell due; `sweep` applies
them. Effects are stamped with the time they fell due, so a sweep that runs late (after
a restart) leaves the same state as sweeps that ran on time, and a key applied once is
never applied again. Cascades are followed: a forfeit can make a no-show, which forfeits
later matches; a last result can start the knockout, whose matches then fall due too.
"""

from __future__ import annotations

import copy
import heapq
from dataclasses import dataclass
from datetime import datetime, timedelta

from tournament import forfeits, progress, reports
from tournament.calendar import CHECKIN_REMINDER, CONFIRM_REMINDER
from tournament.events import (
    CheckinOpen,
    ConfirmReminder,
    Event,
    LatenessPoint,
    MatchReminder,
)
from tournament.lateness import both_present_from, clock_reads, forfeit_minutes, point_steps
from tournament.model import FINAL_STATUSES, EntryStatus, MatchStatus, Stage, TournamentStatus
from tournament.state import Entry, Match, Penalty, TournamentState, minutes


@dataclass(frozen=True, slots=True)
class DueAction:
    """One thing that falls due at `due`; `key` is unique within the tournament."""

    key: str
    due: datetime
    kind: str  # confirm_reminder | checkin_open | match_reminder | lateness | forfeit | accept
    # | no_show_forfeit
    match: int | None = None
    step: int = 0


def pending(state: TournamentState) -> list[DueAction]:
    """Return every action not yet applied, whatever its time, in due order."""
    return _waiting(state)


def next_deadline(
    state: TournamentState, memo: dict[int, datetime | None] | None = None
) -> datetime | None:
    """Return when the next action falls due, if anything is waiting.

    `memo` holds, by match number, when each live match's first waiting action falls due
    (None: none waits), worked out before for the same match, entries of its players,
    done actions and preset: whoever keeps it drops a match's figure when any of them
    changes. The figures worked out here are added to it.
    """
    best = min(
        (a.due for a in _tournament_reminders(state) if a.key not in state.done), default=None
    )
    bounded: list[tuple[datetime, int, Match]] = []
    for earliest, position, match in _bounds(state):
        if earliest is None:
            best = _min(best, _first_due(state, match, memo))
        else:
            bounded.append((earliest, position, match))
    # A match nothing of which falls due before the best so far need not be read: taken
    # earliest first, the first one that starts too late ends the search.
    heapq.heapify(bounded)
    while bounded and (best is None or bounded[0][0] < best):
        _, _, match = heapq.heappop(bounded)
        best = _min(best, _first_due(state, match, memo))
    return best


def _min(best: datetime | None, other: datetime | None) -> datetime | None:
    return other if best is None else best if other is None or best <= other else other


def _first_due(
    state: TournamentState, match: Match, memo: dict[int, datetime | None] | None
) -> datetime | None:
    """Return when the first waiting action of `match` falls due, from `memo` if there."""
    if memo is None:
        return _sooner(None, state, match)
    if match.number in memo:
        return memo[match.number]
    found = memo[match.number] = _sooner(None, state, match)
    return found


def _sooner(best: datetime | None, state: TournamentState, match: Match) -> datetime | None:
    """Return the earlier of `best` and when the first waiting action of `match` falls due."""
    # A match's lateness steps fall due in order: only its first one waiting can be next.
    for action in _match_actions(state, match, until=None, first=True):
        if action.key not in state.done and (best is None or action.due < best):
            best = action.due
    return best


def _waiting(state: TournamentState, *, until: datetime | None = None) -> list[DueAction]:
    """Return the actions not yet applied in due order; those due by `until` when given.

    Run at every command's catch-up, so with `until` it skips the matches and the steps
    that cannot be due yet instead of building every step of every match to sort them.
    """
    actions = _tournament_reminders(state)
    for earliest, _, match in _bounds(state):
        if until is not None and earliest is not None and earliest > until:
            continue  # nothing of this match can be due yet
        actions.extend(_match_actions(state, match, until=until, first=False))
    waiting = (a for a in actions if a.key not in state.done)
    if until is not None:
        waiting = (a for a in waiting if a.due <= until)
    return sorted(waiting, key=_order)


def _bounds(state: TournamentState) -> list[tuple[datetime | None, int, Match]]:
    """Return the matches that can have actions at all (the only ones `_match_actions`
    reads: by a night's end its finished matches are most of them), in order, each as (a
    time none of its actions falls due before, or None when that is not cheap to tell,
    its position, the match). A no-show's match has no such time: the opponent's
    arrival decides.

    One loop reading the fields in place: it runs at every command, over every match.
    """
    lead = minutes(state.preset.reminders.match_minutes_before)
    accept = minutes(state.preset.reporting.accept_minutes)
    entries = state.entries
    no_show = EntryStatus.NO_SHOW
    live: list[tuple[datetime | None, int, Match]] = []
    for position, match in enumerate(state.matches.values()):
        start, white, black = match.start, match.white, match.black
        if start is None or white is None or black is None or match.status in FINAL_STATUSES:
            continue
        if entries[white].status is no_show or entries[black].status is no_show:
            live.append((None, position, match))
            continue
        # A reminder comes first, then lateness steps and the forfeit, counted from the
        # start; a report waiting for its answer times out on its own clock.
        earliest = start - lead
        report = match.report
        if report is not None and report.at + accept < earliest:
            earliest = report.at + accept
        live.append((earliest, position, match))
    return live


def due_actions(state: TournamentState, now: datetime) -> list[DueAction]:
    """Return what fell due by `now`, cascades included, without changing `state`."""
    applied: list[DueAction] = []
    _run(copy.deepcopy(state), now, applied)
    return applied


def sweep(state: TournamentState, now: datetime) -> list[Event]:
    """Apply everything that fell due by `now`, each at its own due time."""
    return _run(state, now, [])


def _run(state: TournamentState, now: datetime, applied: list[DueAction]) -> list[Event]:
    events: list[Event] = []
    while True:
        actions = _waiting(state, until=now)
        if not actions:
            return events
        action = actions[0]
        state.done[action.key] = action.due
        applied.append(action)
        events.extend(apply(state, action))


def apply(state: TournamentState, action: DueAction) -> list[Event]:
    """Apply one due action at its due time; a stale action changes nothing."""
    at = action.due
    if action.kind == "confirm_reminder":
        players = tuple(
            e.player
            for e in state.entries.values()
            if e.status is EntryStatus.ACTIVE and e.approved and not e.confirmed
        )
        return [ConfirmReminder(at=at, players=players)] if players else []
    if action.kind == "checkin_open":
        # The club hears it whenever someone entered may still check in: an entry who
        # never confirmed is drawn once here too. Only the confirmed are reminded.
        waiting = [
            e
            for e in state.entries.values()
            if e.status is EntryStatus.ACTIVE and e.approved and not e.checked_in
        ]
        players = tuple(e.player for e in waiting if e.confirmed)
        return [CheckinOpen(at=at, players=players)] if waiting else []
    assert action.match is not None
    match = state.matches[action.match]
    if action.kind == "accept":
        return reports.accept_on_timeout(state, match, action.step, at)
    if match.is_final or not match.is_ready:
        return []
    if action.kind == "match_reminder":
        assert match.white is not None and match.black is not None and match.start is not None
        return [
            MatchReminder(
                at=at, match=match.number, white=match.white, black=match.black, start=match.start
            )
        ]
    if action.kind == "no_show_forfeit":
        return _no_show_forfeit(state, match, at)
    if began_by(state, match, at):
        return []
    if action.kind == "lateness":
        return _lateness_step(state, match, action.step, at)
    return _lateness_forfeit(state, match, at)


def _arrival_after_no_show(absent: Entry, other: Entry) -> datetime | None:
    """Return when `other` is here to take a match of the no-show `absent`, if they come
    (CLUB-NO-SHOW: the no-show's matches are lost at once to an opponent who is here)."""
    since = absent.withdrawn_at
    if absent.status is not EntryStatus.NO_SHOW or since is None:
        return None
    for span in other.presence:
        if span.end is None or span.end > since:
            return max(span.start, since)
    return None


def _no_show_forfeit(state: TournamentState, match: Match, at: datetime) -> list[Event]:
    """Give the opponent who is here the match of a no-show (CLUB-NO-SHOW)."""
    if match.status is not MatchStatus.SCHEDULED:
        return []
    absent = [p for p in match.players if state.entries[p].status is EntryStatus.NO_SHOW]
    here = [p for p in match.players if state.entries[p].present_at(at)]
    if len(absent) != 1 or absent == here or not here:
        return []
    events = forfeits.forfeit_match(state, match, (absent[0],), at, reason="no_show")
    events.extend(progress.settle(state, at))
    return events


def _order(action: DueAction) -> tuple[datetime, int, str]:
    return (action.due, action.match or 0, action.key)


def _tournament_reminders(state: TournamentState) -> list[DueAction]:
    reminders = state.preset.reminders
    created = state.created_at or state.start - timedelta(days=365)
    actions = []
    if state.status is TournamentStatus.REGISTRATION:
        due = state.start - minutes(reminders.confirm_minutes_before)
        actions.append(DueAction(CONFIRM_REMINDER, max(due, created), "confirm_reminder"))
    if state.status in (TournamentStatus.REGISTRATION, TournamentStatus.GROUPS):
        due = state.start - minutes(reminders.checkin_minutes_before)
        actions.append(DueAction(CHECKIN_REMINDER, max(due, created), "checkin_open"))
    return actions


def _match_actions(
    state: TournamentState, match: Match, *, until: datetime | None, first: bool
) -> list[DueAction]:
    """Return the actions of a match `_bounds` lists (no other match has any)."""
    assert match.start is not None  # _bounds's test
    number = match.number
    actions = []
    if match.report is not None and match.status is MatchStatus.PENDING:
        accept_at = match.report.at + minutes(state.preset.reporting.accept_minutes)
        actions.append(
            DueAction(
                f"accept:{number}:{match.report.seq}",
                accept_at,
                "accept",
                number,
                match.report.seq,
            )
        )
    reminder = match.start - minutes(state.preset.reminders.match_minutes_before)
    if match.created_at is None or reminder > match.created_at:
        actions.append(DueAction(f"remind:match:{number}", reminder, "match_reminder", number))
    if match.status is not MatchStatus.SCHEDULED:
        return actions
    white, black = state.entries[match.white], state.entries[match.black]  # type: ignore[index]
    arrives = _arrival_after_no_show(white, black) or _arrival_after_no_show(black, white)
    if arrives is not None and match.created_at is not None:
        # A match made after the opponent came (a round drawn later) is theirs from then.
        arrives = max(arrives, match.created_at)
    if arrives is not None:
        actions.append(DueAction(f"noshow:{number}", arrives, "no_show_forfeit", number))
    began = both_present_from(white, black, match.start)
    rules = state.preset.lateness
    for step in point_steps(rules, match.length):
        due = clock_reads(match.start, match.pauses, minutes(step * rules.step_minutes))
        if due is None or (began is not None and began <= due):
            break
        if until is not None and due > until:
            break  # the steps after it fall due later still
        key = f"late:{number}:{step}"
        if first and key in state.done:
            continue
        actions.append(DueAction(key, due, "lateness", number, step))
        if first:
            break
    due = forfeit_at(state, match)
    if due is not None and (began is None or due < began):
        actions.append(DueAction(f"forfeit:{number}", due, "forfeit", number))
    return actions


def late_at(state: TournamentState, match: Match, at: datetime) -> bool:
    """Return whether lateness runs for `match` at `at`: ready, due and not begun, so a
    player of it is late (HGV-2.3.1)."""
    if not match.is_ready or match.is_final or match.start is None or match.start > at:
        return False
    return not began_by(state, match, at)


def forfeit_at(state: TournamentState, match: Match) -> datetime | None:
    """Return when a player still absent from `match` loses it by forfeit (HGV-2.3.1);
    None while the director has its clock paused."""
    assert match.start is not None
    rules = state.preset.lateness
    return clock_reads(match.start, match.pauses, minutes(forfeit_minutes(rules, match.length)))


def began_by(state: TournamentState, match: Match, at: datetime) -> bool:
    """Return whether a match has begun by `at`: under way or played, or both players
    there together since its start (no lateness runs for it any more, HGV-2.3.1)."""
    if match.status is not MatchStatus.SCHEDULED:
        return True
    assert match.white is not None and match.black is not None and match.start is not None
    began = both_present_from(state.entries[match.white], state.entries[match.black], match.start)
    return began is not None and began <= at


def _lateness_step(state: TournamentState, match: Match, step: int, at: datetime) -> list[Event]:
    """Give the present opponent of each absent player the step's points (HGV-2.3.1)."""
    rules = state.preset.lateness
    events: list[Event] = []
    for late in match.players:
        opponent = match.opponent_of(late)
        assert opponent is not None
        if state.entries[late].present_at(at) or not state.entries[opponent].present_at(at):
            continue  # CLUB-BOTH-ABSENT: nobody present, nobody scores
        points = min(rules.points_per_step, match.length - 1 - match.score_of(opponent))
        if points <= 0:
            continue
        key = f"late:{match.number}:{step}:{late}"
        state.penalties[key] = Penalty(
            key=key, match=match.number, against=late, points=points, at=at
        )
        if opponent == match.white:
            match.white_score += points
        else:
            match.black_score += points
        events.append(
            LatenessPoint(
                at=at,
                match=match.number,
                against=late,
                to=opponent,
                points=points,
                minutes_late=step * rules.step_minutes,
                white_score=match.white_score,
                black_score=match.black_score,
            )
        )
    return events


def _lateness_forfeit(state: TournamentState, match: Match, at: datetime) -> list[Event]:
    """Forfeit whoever is still absent; both absent lose both (CLUB-BOTH-ABSENT)."""
    absent = tuple(p for p in match.players if not state.entries[p].present_at(at))
    if not absent:
        return []
    no_shows = [p for p in absent if forfeits.is_no_show(state, p, at)]
    events = forfeits.forfeit_match(state, match, absent, at, reason="late")
    for player in no_shows:
        # CLUB-NO-SHOW: confirmed, never came, and now their first match is lost.
        events.extend(forfeits.no_show(state, player, at))
    if match.stage is Stage.KNOCKOUT and len(absent) == 2:
        return events  # nobody advances: a director decides with /result
    events.extend(progress.settle(state, at))
    return events
