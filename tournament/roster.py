"""Who plays in a tournament, as a director changes it: walk-ins, removals, a new draw,
and one player merged into another.

A director may enter a player after the draw (a walk-in) or draw again only while no
result exists: once a match has a score, a report or a lateness point, the groups are
what was played. A removal is for the entry list, before the draw; after it, a player
who stops playing withdraws or forfeits (HGV-2.3.5). Merging a duplicate rewrites every
fact of the tournament that names it, so its results and points carry over.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime

from tournament import attendance, progress
from tournament.entry import decide_entry
from tournament.events import Event
from tournament.model import EntryStatus, PlayerId, Refused, TournamentStatus
from tournament.state import Entry, Span, TournamentState

# The effects of the automatic sweep that belong to matches (due.py's keys): a new draw
# has new matches, whose reminders and lateness steps are still to come.
_MATCH_KEYS = ("remind:match:", "late:", "forfeit:", "accept:")


def has_results(state: TournamentState) -> bool:
    """Return whether anything was played: a final match, a report, a game, a penalty."""
    if state.status in (TournamentStatus.KNOCKOUT, TournamentStatus.FINISHED):
        return True
    return any(
        m.is_final or m.report is not None or m.games or m.white_score or m.black_score
        for m in state.matches.values()
    ) or any(not p.cancelled for p in state.penalties.values())


def walk_in(
    state: TournamentState, player: PlayerId, at: datetime, *, born: date | None = None
) -> Entry:
    """Enter `player` after the draw, confirmed, for a new draw (`redraw`) to place.

    Only before the first result, and where the preset takes walk-ins. Until the new
    draw the entry counts as one the draw left out (withdrawn at the draw), so a night
    that goes on without a new draw has nobody "active" who never played.
    """
    if state.status is TournamentStatus.REGISTRATION or state.draw is None:
        raise ValueError("before the draw a player registers (attendance.register)")
    if state.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
        raise Refused("walk_in_finished", tournament=state.name)
    if not state.preset.entry.walk_ins:
        raise Refused("walk_in_not_allowed", tournament=state.name)
    if has_results(state):
        raise Refused("walk_in_too_late", tournament=state.name)
    existing = state.entries.get(player)
    if existing is not None and player in waiting_for_draw(state):
        return existing  # entered already, waiting for the new draw
    if existing is not None and existing.status is EntryStatus.ACTIVE:
        raise Refused("already_registered", tournament=state.name)
    born = born or (existing.born if existing else None)
    # The age rule holds for a walk-in too (NAV-ENTRY); a director's entry needs no approval.
    decision = decide_entry(
        state.preset.entry, born=born, on=state.start.date(), is_member=True, official=False
    )
    if not decision.accepted:
        raise Refused(decision.refusal or "entry_refused", **dict(decision.params))
    entry = Entry(
        player=player,
        registered_at=at,
        born=born,
        approved=True,
        confirmed_at=at,
        status=EntryStatus.WITHDRAWN,
        withdrawn_at=state.draw.at,
    )
    if at >= attendance.checkin_opens(state):
        # On the day a director walks in the latecomer standing before them: present
        # from now, not late from the round's start and a no-show 30 minutes on.
        entry.presence.append(Span(start=at))
    state.entries[player] = entry
    return entry


def waiting_for_draw(state: TournamentState) -> list[PlayerId]:
    """Return the players entered after the draw, whom only a new draw places."""
    if state.status is not TournamentStatus.GROUPS or state.draw is None:
        return []
    drawn_at = state.draw.at
    return [
        e.player for e in _outside_the_draw(state) if e.confirmed and e.registered_at >= drawn_at
    ]


def left_out(state: TournamentState) -> list[PlayerId]:
    """Return the players the draw left out (entered, neither confirmed nor here)."""
    if state.status is TournamentStatus.REGISTRATION:
        return []
    # Not a walk-in waiting for a new draw (`waiting_for_draw`): those are confirmed, and
    # may have entered in the draw's own minute.
    return [e.player for e in _outside_the_draw(state) if not (e.confirmed or e.checked_in)]


def _outside_the_draw(state: TournamentState) -> list[Entry]:
    """Return the entries withdrawn by the draw itself and in no group: left out by it, or
    walk-ins (entered after it, waiting as such a withdrawal; in the same minute as a new
    draw, as the withdrawal a walk-in waits with looks)."""
    if state.draw is None:
        return []
    drawn_at = state.draw.at
    drawn = {player for group in state.groups for player in group.players}
    return [
        e
        for e in state.entries.values()
        if e.status is EntryStatus.WITHDRAWN
        and e.withdrawn_at == drawn_at
        and e.player not in drawn
    ]


def remove(state: TournamentState, player: PlayerId, at: datetime) -> Entry:
    """Take a player out of the entry list, before the draw (a director's act)."""
    entry = state.entries.get(player)
    walked_in = player in waiting_for_draw(state)
    if entry is None:
        raise Refused("remove_not_entered", tournament=state.name)
    if entry.status is not EntryStatus.ACTIVE and not walked_in:
        raise Refused("remove_already_out", tournament=state.name)  # withdrawn, removed
    if state.status is not TournamentStatus.REGISTRATION and not walked_in:
        raise Refused("remove_after_draw", tournament=state.name)
    entry.status = EntryStatus.REMOVED
    entry.withdrawn_at = at
    return entry


def redraw(
    state: TournamentState,
    ranking: tuple[PlayerId, ...],
    at: datetime,
    *,
    barred: frozenset[PlayerId] = frozenset(),
) -> list[Event]:
    """Draw the groups again, before the first result, with whoever is entered now.

    The players the first draw left out (neither confirmed nor here) are taken back into
    account; a random draw uses the next seed, so it is a new lot, reproducible as well.
    """
    if state.status is TournamentStatus.REGISTRATION or state.draw is None:
        raise Refused("redraw_not_drawn", tournament=state.name)
    if state.status is not TournamentStatus.GROUPS or has_results(state):
        raise Refused("redraw_too_late", tournament=state.name)
    drawn_at = state.draw.at
    seed = state.draw.seed + 1
    for entry in state.entries.values():
        if entry.status is EntryStatus.WITHDRAWN and entry.withdrawn_at == drawn_at:
            entry.status = EntryStatus.ACTIVE  # left out by the draw, not by themselves
            entry.withdrawn_at = None
        entry.seed = None
    state.groups = []
    state.matches = {}
    state.penalties = {}
    state.done = {k: v for k, v in state.done.items() if not k.startswith(_MATCH_KEYS)}
    state.draw = None
    state.memo.clear()
    state.status = TournamentStatus.REGISTRATION
    return progress.draw(state, ranking, at, seed=seed, barred=barred)


def has_played(state: TournamentState, player: PlayerId) -> bool:
    """Return whether `player` has a final result in the tournament."""
    return any(m.is_final and player in m.players for m in state.matches.values())


def merge_player(state: TournamentState, old: PlayerId, new: PlayerId) -> None:
    """Make every fact of the tournament that names `old` name `new` instead.

    The caller checks first that `new` did not play in it too (`both_drawn`). Both
    entered before the draw is one person entered twice (a director's /addplayer, then
    their own /register): the two entries become one (`_fold_entries`).
    """
    if new in state.entries and old in state.entries:
        if both_drawn(state, old, new):
            raise Refused("merge_both_entered", tournament=state.name)
        _fold_entries(state.entries[new], state.entries.pop(old))

    def swap(player: PlayerId | None) -> PlayerId | None:
        return new if player == old else player

    if old in state.entries:
        entry = state.entries.pop(old)
        entry.player = new
        state.entries[new] = entry
    state.groups = [
        replace(g, players=tuple(new if p == old else p for p in g.players)) for g in state.groups
    ]
    for match in state.matches.values():
        match.white = swap(match.white)
        match.black = swap(match.black)
        match.winner = swap(match.winner)
        match.disputed_by = swap(match.disputed_by)
        match.forfeited_by = frozenset(new if p == old else p for p in match.forfeited_by)
        if match.report is not None and match.report.by == old:
            match.report = replace(match.report, by=new)
    for penalty in state.penalties.values():
        if penalty.against == old:
            penalty.against = new
    for placement in state.placements:
        if placement.player == old:
            placement.player = new
    if state.draw is not None:
        state.draw = replace(
            state.draw,
            ranking=tuple(new if p == old else p for p in state.draw.ranking),
            players=tuple(new if p == old else p for p in state.draw.players),
        )
    state.memo.clear()


def both_drawn(state: TournamentState, one: PlayerId, other: PlayerId) -> bool:
    """Return whether both players have entries in a tournament already drawn: two people
    in its groups, never merged. Before the draw two entries may be one person's."""
    drawn = state.status is not TournamentStatus.REGISTRATION or state.draw is not None
    return drawn and one in state.entries and other in state.entries


def _fold_entries(kept: Entry, twin: Entry) -> None:
    """Make `kept` the one entry of a person entered twice: entered since the earlier,
    active, approved, confirmed and present when either was."""
    kept.registered_at = min(kept.registered_at, twin.registered_at)
    if twin.status is EntryStatus.ACTIVE and kept.status is not EntryStatus.ACTIVE:
        kept.status, kept.withdrawn_at = EntryStatus.ACTIVE, None
    kept.approved = kept.approved or twin.approved
    confirmed = [at for at in (kept.confirmed_at, twin.confirmed_at) if at is not None]
    kept.confirmed_at = min(confirmed, default=None)
    # Checked in under one name or the other: one person's arrivals, not two overlapping.
    kept.presence = kept.presence or twin.presence
    kept.born = kept.born or twin.born
    kept.novice = kept.novice and twin.novice
