"""Entries and presence: register, confirm, withdraw, check in, away (CLUB-PRESENCE).

Also the ways a player stops playing: withdrawing before the draw (no sanction), leaving
mid-tournament (HGV-2.3.5) and a director's forfeit.
"""

from __future__ import annotations

from datetime import date, datetime

from tournament import progress
from tournament.entry import decide_entry
from tournament.events import EntryReinstated, Event, SanctionRecorded
from tournament.forfeits import forfeit_match
from tournament.model import (
    EntryStatus,
    MatchStatus,
    PlayerId,
    Refused,
    Stage,
    TournamentStatus,
)
from tournament.progress import MAIN_STAGES
from tournament.state import Entry, Match, Span, TournamentState, minutes


def entered(state: TournamentState, player: PlayerId) -> bool:
    """Return whether `player` holds an active entry."""
    existing = state.entries.get(player)
    return existing is not None and existing.status is EntryStatus.ACTIVE


def register(
    state: TournamentState,
    player: PlayerId,
    at: datetime,
    *,
    born: date | None = None,
    is_member: bool = True,
    suspended: bool = False,
    by_director: bool = False,
    novice: bool = False,
    night_passed: bool = False,
) -> Entry:
    """Enter `player`; a director's entry needs no approval (HGV-1.4, NAV-ENTRY). A
    novice enters the novice category (HGV-NOVICE). `night_passed`: its day went by
    without a draw (`calendar.overdue`); a player has no night to enter for."""
    if state.status is not TournamentStatus.REGISTRATION:
        raise Refused("entries_closed", tournament=state.name)
    if night_passed and not by_director:
        raise Refused("night_passed", tournament=state.name, start=state.start)
    if suspended:
        raise Refused("suspended", tournament=state.name)
    if entered(state, player):
        raise Refused("already_registered", tournament=state.name)
    existing = state.entries.get(player)
    born = born or (existing.born if existing else None)
    decision = decide_entry(
        state.preset.entry,
        born=born,
        on=state.start.date(),
        is_member=is_member,
        official=state.official,
    )
    if not decision.accepted:
        raise Refused(decision.refusal or "entry_refused", **dict(decision.params))
    entry = Entry(
        player=player,
        registered_at=at,
        born=born,
        approved=by_director or not decision.needs_approval,
        novice=novice,
    )
    state.entries[player] = entry
    return entry


def approve(state: TournamentState, player: PlayerId) -> Entry:
    """Approve a waiting entry (HGV-1.4)."""
    entry = _active_entry(state, player)
    if entry.approved:
        raise Refused("already_approved")
    entry.approved = True
    return entry


def waiting_for_approval(state: TournamentState) -> list[PlayerId]:
    """Return the players whose entry waits for a director's approval (HGV-1.4)."""
    return [
        e.player
        for e in state.entries.values()
        if e.status is EntryStatus.ACTIVE and not e.approved
    ]


def admit_member(state: TournamentState | None, player: PlayerId) -> bool:
    """Let a newly approved member's waiting entry play (HGV-1.4); return whether one did.

    Approval is membership, once per player: the caller records it on the player, and
    this approves the entry that waited for it.
    """
    if state is None or state.status is TournamentStatus.FINISHED:
        return False
    entry = state.entries.get(player)
    if entry is None or entry.status is not EntryStatus.ACTIVE or entry.approved:
        return False
    entry.approved = True
    return True


def blocking_the_draw(state: TournamentState) -> list[PlayerId]:
    """Return the confirmed players the draw would leave out for lack of approval.

    The draw takes confirmed, approved players; a director who draws while confirmed
    players still wait for approval would drop them without a word (HGV-1.4).
    """
    return [p for p in waiting_for_approval(state) if state.entries[p].confirmed]


def confirm(
    state: TournamentState, player: PlayerId, at: datetime, *, night_passed: bool = False
) -> Entry:
    """Record that the player will attend; not a night whose day went by undrawn."""
    entry = _active_entry(state, player)
    if night_passed:  # before "you confirmed already": there is no night to come to
        raise Refused("night_passed", tournament=state.name, start=state.start)
    if entry.confirmed_at is not None:
        raise Refused("already_confirmed")
    if state.status is TournamentStatus.FINISHED:
        raise Refused("tournament_finished", tournament=state.name)
    entry.confirmed_at = at
    return entry


def checkin_opens(state: TournamentState) -> datetime:
    """Return when players may check in: the preset's minutes before the start."""
    return state.start - minutes(state.preset.reminders.checkin_minutes_before)


def checkin_open(state: TournamentState, now: datetime) -> bool:
    """Return whether check-in has opened by `now`."""
    return now >= checkin_opens(state)


def check_in(
    state: TournamentState,
    player: PlayerId,
    at: datetime,
    *,
    director: bool = False,
    night_passed: bool = False,
) -> Entry:
    """Mark the player present from `at` (CLUB-PRESENCE); players only once check-in opens,
    and not for a night whose day went by undrawn."""
    entry = _active_entry(state, player)
    if not entry.approved:
        raise Refused("entry_not_approved")
    opens = checkin_opens(state)
    if not director and at < opens:
        raise Refused("checkin_not_open", opens=opens)
    if not director and night_passed and state.status is TournamentStatus.REGISTRATION:
        raise Refused("night_passed", tournament=state.name, start=state.start)
    if state.status is TournamentStatus.FINISHED:
        raise Refused("tournament_finished", tournament=state.name)
    if entry.present_now():
        raise Refused("already_present")
    entry.presence.append(Span(start=at))
    return entry


def at_the_table(state: TournamentState, player: PlayerId, at: datetime) -> None:
    """Mark present from `at` a player who answers for their own match (CLUB-PRESENCE):
    they are at the venue, whether they forgot /checkin or came back after /away."""
    entry = state.entries.get(player)
    if entry is not None and entry.status is EntryStatus.ACTIVE and not entry.present_now():
        entry.presence.append(Span(start=at))


def mark_away(state: TournamentState, player: PlayerId, at: datetime) -> Entry:
    """Mark the player away from `at`: lateness runs for matches due meanwhile (HGV-2.3.7)."""
    entry = _active_entry(state, player)
    if not entry.present_now():
        if entry.presence:  # marked away before: said so, with since when
            raise Refused("already_away", since=entry.presence[-1].end)
        raise Refused("not_present")
    entry.presence[-1].end = at
    return entry


def withdraw(
    state: TournamentState, player: PlayerId, at: datetime, *, night_passed: bool = False
) -> list[Event]:
    """Withdraw: free before the start (HGV-2.3.6); after the draw it is leaving (HGV-2.3.5).

    Between the start and the draw nothing is lost yet, but the word came late: a
    confirmed player who did not come is a no-show, one who checked in and goes has
    left; either is suspended from the next tournament (`withdrawal_sanction`).
    """
    entry = _active_entry(state, player)
    if state.status is not TournamentStatus.REGISTRATION:
        return leave(state, player, at, reason="left")
    sanction = withdrawal_sanction(state, player, at, night_passed=night_passed)
    entry.status = EntryStatus.WITHDRAWN
    entry.withdrawn_at = at
    if entry.present_now():
        entry.presence[-1].end = at
    if sanction is None:
        return []
    return [SanctionRecorded(at=at, player=player, reason=sanction)]


def withdrawal_sanction(
    state: TournamentState, player: PlayerId, at: datetime, *, night_passed: bool = False
) -> str | None:
    """Return the suspension's reason withdrawing at `at` carries, None when it is free.

    Before the start it is free (HGV-2.3.6: notice given in time); so it is for a player
    who never confirmed nor came, or whom no director approved yet (HGV-1.4), and from a
    night whose day went by undrawn (`night_passed`: it was never held). After the
    start a checked-in player leaves ("left", HGV-2.3.5), a confirmed one who is not here
    did not come ("no_show", HGV-2.3.6); after the draw every withdrawal is leaving.
    """
    entry = _active_entry(state, player)
    if state.status is not TournamentStatus.REGISTRATION:
        return "left"
    if at < state.start or not entry.approved or night_passed:
        return None  # in time, never admitted to play (HGV-1.4), or never held
    if entry.checked_in:
        return "left"
    return "no_show" if entry.confirmed else None


def leave(state: TournamentState, player: PlayerId, at: datetime, *, reason: str) -> list[Event]:
    """Forfeit every remaining match of a player who left, and suspend them (HGV-2.3.5)."""
    entry = _active_entry(state, player)
    if state.status is TournamentStatus.FINISHED:
        raise Refused("tournament_finished", tournament=state.name)
    entry.status = EntryStatus.WITHDRAWN
    entry.withdrawn_at = at
    if entry.present_now():
        entry.presence[-1].end = at
    events: list[Event] = _forfeit_open(state, player, at, reason)
    events.append(SanctionRecorded(at=at, player=player, reason=reason))
    events.extend(progress.settle(state, at))
    # A final forfeiter drops to the third-place match (HGV-2.3.8, NAV-IV): gone, they
    # lose that one too.
    while more := _forfeit_open(state, player, at, reason):
        events.extend(more)
        events.extend(progress.settle(state, at))
    return events


def _forfeit_open(
    state: TournamentState, player: PlayerId, at: datetime, reason: str
) -> list[Event]:
    """Forfeit the player's open matches whose players are both known."""
    events: list[Event] = []
    for match in state.matches_of(player):
        if not match.is_final and match.is_ready:
            events.extend(forfeit_match(state, match, (player,), at, reason=reason))
    return events


def reinstate(state: TournamentState, player: PlayerId, at: datetime) -> list[Event]:
    """Undo a withdrawal, no-show or removal: the player plays on (a director's act).

    The forfeits the departure itself caused (HGV-2.3.5, HGV-2.3.6) are reopened where
    the rules allow: group matches while the group stage is on, knockout matches whose
    result nothing has followed up yet, and never a match the player lost by lateness
    before (that forfeit happened at the venue) nor a double forfeit with someone still
    out. The caller lifts the suspension the departure caused (`sanctions.caused_by`).
    """
    entry = state.entries.get(player)
    if entry is None:
        raise Refused("not_registered", tournament=state.name)
    if entry.status is EntryStatus.ACTIVE:
        raise Refused("entry_already_active")
    was = entry.status
    reopened: list[int] = []
    for match in state.matches_of(player):
        if _restorable(state, match, player, entry.withdrawn_at):
            progress.restart(state, match, at)
            reopened.append(match.number)
    if reopened and any(state.matches[n].stage in MAIN_STAGES for n in reopened):
        entry.knockout_forfeit = False
    entry.status = EntryStatus.ACTIVE
    entry.withdrawn_at = None
    events: list[Event] = [
        EntryReinstated(at=at, player=player, was=was.value, reopened=tuple(reopened))
    ]
    return events + progress.settle(state, at)


def _restorable(
    state: TournamentState, match: Match, player: PlayerId, left_at: datetime | None
) -> bool:
    if match.status not in (MatchStatus.FORFEIT, MatchStatus.DOUBLE_FORFEIT):
        return False
    if match.forfeited_by != frozenset({player}):
        return False
    if match.finished_at != left_at and f"noshow:{match.number}" not in state.done:
        return False  # not lost by the departure (nor when an opponent arrived after it)
    if f"forfeit:{match.number}" in state.done:
        return False  # lost by lateness at the venue, before leaving
    if match.stage in (Stage.GROUP, Stage.TIEBREAK):
        return state.status is TournamentStatus.GROUPS
    return not progress.followed_up(state, match)


def excuse(state: TournamentState, player: PlayerId) -> bool:
    """Excuse a no-show who gave notice (CLUB-NO-SHOW): they count as withdrawn.

    Returns whether there was a no-show to excuse; a plain withdrawal is not one. The
    forfeits stand; the suspension is ended by the caller (`sanctions.excusable`).
    """
    entry = state.entries.get(player)
    if entry is None or entry.status is not EntryStatus.NO_SHOW:
        return False
    entry.status = EntryStatus.WITHDRAWN
    return True


def director_forfeit(
    state: TournamentState, player: PlayerId, at: datetime, *, match: Match | None = None
) -> list[Event]:
    """Give the player's current match to the opponent by forfeit (a director's act)."""
    match = match or current_match(state, player)
    if match is None:
        raise Refused("no_open_match")
    if match.is_final:
        # A forfeit recorded on a match played would change nothing (forfeit_match).
        raise Refused("forfeit_match_final", match=match.number)
    events = forfeit_match(state, match, (player,), at, reason="director")
    events.extend(progress.settle(state, at))
    return events


def current_match(state: TournamentState, player: PlayerId) -> Match | None:
    """Return the player's earliest open match whose players are both known."""
    open_matches = state.open_matches_of(player)
    return open_matches[0] if open_matches else None


def active_entry(state: TournamentState, player: PlayerId) -> Entry:
    """Return the player's entry if it is active; refuse otherwise (what to do instead)."""
    return _active_entry(state, player)


def _active_entry(state: TournamentState, player: PlayerId) -> Entry:
    entry = state.entries.get(player)
    if entry is None:
        raise Refused("not_registered", tournament=state.name)
    if entry.status is not EntryStatus.ACTIVE:
        raise Refused("entry_not_active", status=entry.status)
    return entry
