"""A club's calendar: which tournament a command means, moving and calling one off.

Without a `tournament:` option a command acts on the tournament being played today,
else the next one to start; when that is still ambiguous (two tonight, or two starting
at the same time) nobody guesses: the command asks which. A cancelled tournament is in
no default.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, tzinfo
from zoneinfo import ZoneInfo

from tournament import folding
from tournament.model import Refused, TournamentStatus
from tournament.state import TournamentState

_IN_PLAY = (TournamentStatus.GROUPS, TournamentStatus.KNOCKOUT)
# The tournament's reminders (`due` sends them), by their keys in `state.done`: a move
# to another day forgets them, so they go out again for the new one. Here, not in
# `due`, so the calendar loads without the rules of play (`clubtd export` does).
CONFIRM_REMINDER = "remind:confirm"
CHECKIN_REMINDER = "remind:checkin"


@dataclass(frozen=True, slots=True)
class Listed:
    """A tournament as the club's list shows it (a row of `tournaments.list()`)."""

    id: int
    name: str
    start: datetime  # aware
    status: TournamentStatus

    def __post_init__(self) -> None:
        object.__setattr__(self, "status", TournamentStatus(self.status))

    @property
    def live(self) -> bool:
        """Return whether it was not called off."""
        return self.status is not TournamentStatus.CANCELLED

    @property
    def done(self) -> bool:
        """Return whether it is over: finished or called off."""
        return self.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED)


@dataclass(frozen=True, slots=True)
class Meant:
    """The tournament a command means, or the candidates to ask between."""

    chosen: Listed | None
    candidates: tuple[Listed, ...] = ()


def local(moment: datetime, zone: str | tzinfo) -> datetime:
    """Return `moment` on the club's clock. At the calendar's edge (a start in the year
    9999 stored before starts were bounded) a zone ahead or behind would overflow: the
    moment then stays in UTC, so no time-zone change can break a club's commands."""
    try:
        return moment.astimezone(ZoneInfo(zone) if isinstance(zone, str) else zone)
    except OverflowError:
        return moment.astimezone(UTC)


def meant(listed: Sequence[Listed], now: datetime, zone: str) -> Meant:
    """Return the tournament being played today, else the next one to start.

    One in play since tonight (or last night) comes first, then one starting today, then
    one still in play from an earlier night: a final never reported must not take over
    the next month's night (its /draw answered "the groups are drawn already")."""
    live = [t for t in listed if t.live]
    today = local(now, zone).date()

    def on_today(t: Listed) -> bool:
        return local(t.start, zone).date() == today

    tonight = [t for t in live if played_tonight(t, now, zone)]
    stale = [t for t in live if t.status in _IN_PLAY and t not in tonight]
    # Tonight's, finished: a correction typed after its final (/result 10 3-1) means it,
    # not last month's night left unfinished, which would take it otherwise.
    finished_tonight = [
        t for t in live if t.status is TournamentStatus.FINISHED and _recent(t, now, zone)
    ]
    for tier in (
        tonight,
        [t for t in live if t.status == TournamentStatus.REGISTRATION and on_today(t)],
        finished_tonight if stale else [],
        stale,
    ):
        if len(tier) == 1:
            return Meant(tier[0])
        if tier:
            return Meant(None, tuple(sorted(tier, key=lambda t: (t.start, t.id))))
    upcoming = sorted(
        (t for t in live if t.status == TournamentStatus.REGISTRATION and t.start > now),
        key=lambda t: (t.start, t.id),
    )
    if upcoming:
        tied = tuple(t for t in upcoming if t.start == upcoming[0].start)
        return Meant(tied[0]) if len(tied) == 1 else Meant(None, tied)
    # Nothing ahead: an entry list whose start passed undrawn, else the last one played.
    for status in (TournamentStatus.REGISTRATION, TournamentStatus.FINISHED):
        past = [t for t in live if t.status == status]
        if past:
            return Meant(max(past, key=lambda t: (t.start, t.id)))
    return Meant(None)


def entered_among(candidates: Sequence[Listed], entered: Collection[int]) -> Listed | None:
    """Return the only one of `candidates` a player is entered in, if any: for them a
    command that could mean several tournaments is not ambiguous."""
    mine = [t for t in candidates if t.id in entered]
    return mine[0] if len(mine) == 1 else None


def entries_another_day(chosen: Listed, now: datetime, zone: str) -> bool:
    """Return whether `chosen` takes entries and is not played today: only then may a
    player's own command mean another of their tournaments (`upcoming_entry`)."""
    return (
        chosen.status is TournamentStatus.REGISTRATION
        and local(chosen.start, zone).date() != local(now, zone).date()
    )


def upcoming_entry(
    chosen: Listed, listed: Sequence[Listed], entered: Collection[int], now: datetime, zone: str
) -> Listed | None:
    """Return the one upcoming tournament a player entered when `chosen`, the next to
    start, is not theirs: their own command means it. None: `chosen` stands (theirs, in
    play, tonight's, where a /checkin at the venue is for it, or several of theirs)."""
    if chosen.id in entered or not entries_another_day(chosen, now, zone):
        return None
    mine = [
        t
        for t in listed
        if t.id in entered and t.status is TournamentStatus.REGISTRATION and t.start > now
    ]
    return mine[0] if len(mine) == 1 else None


def named(listed: Sequence[Listed], text: str) -> Listed | None:
    """Return the tournament `text` names, forgivingly (`februarie` finds "Cupa
    Februarie", `cupa feb` too); the latest of that name; None when none or several."""
    wanted = folding.loose(text)
    # Of tournaments sharing a name, one called off comes first, so the live one wins.
    ordered = sorted(listed, key=lambda t: (t.live, t.start))
    folded = {t.id: folding.loose(t.name) for t in ordered}
    exact = [t for t in ordered if folded[t.id] == wanted]
    starts = [t for t in ordered if folded[t.id].startswith(wanted)]
    # Forgiving like player names: any word of the name, by its beginning.
    by_words = [
        row
        for row in ordered
        if all(any(w.startswith(t) for w in folded[row.id].split()) for t in wanted.split())
    ]
    found = exact or starts or by_words
    if wanted and found and len({folded[t.id] for t in found}) == 1:
        return found[-1]  # the latest of that name
    return None


def last_played(listed: Sequence[Listed], before: Listed) -> Listed | None:
    """Return the latest finished tournament that started before `before`: what a look-up
    shows while `before`, the one meant now, has nothing to show yet."""
    finished = [
        t
        for t in listed
        if t.status is TournamentStatus.FINISHED and (t.start, t.id) < (before.start, before.id)
    ]
    return max(finished, key=lambda t: (t.start, t.id), default=None)


def played_tonight(t: Listed, now: datetime, zone: str) -> bool:
    """Return whether `t` is in play and started on the club's today, or yesterday (a
    night may run past midnight); one left in play longer ago is not tonight's."""
    return t.status in _IN_PLAY and _recent(t, now, zone)


def _recent(t: Listed, now: datetime, zone: str) -> bool:
    """Return whether `t` started on the club's today, or yesterday."""
    days = (local(now, zone).date() - local(t.start, zone).date()).days
    return 0 <= days <= 1


def overdue(t: Listed | TournamentState, now: datetime, zone: str) -> bool:
    """Return whether `t` still waits for its draw though it was to start on an earlier
    day: a night forgotten, or called off without /tournament cancel."""
    return (
        t.status is TournamentStatus.REGISTRATION
        and local(t.start, zone).date() < local(now, zone).date()
    )


def same_time_later(start: datetime, now: datetime, zone: str) -> datetime:
    """Return the first moment after `now` on the weekday and at the club's time of
    `start`, whole weeks later: the night a forgotten tournament may move to."""
    was = local(start, zone)
    wall = was.replace(tzinfo=None)  # the club's clock: 20:00 stays 20:00 across a DST change
    while True:
        wall += timedelta(weeks=1)
        moved = wall.replace(tzinfo=was.tzinfo)
        if moved > now:
            return moved


def open_for_entries(listed: Sequence[Listed], now: datetime, zone: str) -> list[Listed]:
    """Return the tournaments taking entries (`taking_entries`), the first to start first."""
    open_ = [t for t in listed if taking_entries(t, now, zone)]
    return sorted(open_, key=lambda t: (t.start, t.id))


def taking_entries(t: Listed, now: datetime, zone: str) -> bool:
    """Return whether `t` takes entries for a night still to come, or today's."""
    today = local(now, zone).date()
    return t.status is TournamentStatus.REGISTRATION and (
        t.start > now or local(t.start, zone).date() == today
    )


def season(moment: datetime, zone: str | tzinfo) -> int:
    """Return the season `moment` falls in: the calendar year on the club's clock (HGV-8)."""
    return local(moment, zone).year


def in_season(listed: Sequence[Listed], year: int, zone: str | tzinfo) -> set[int]:
    """Return the ids of the tournaments of season `year`: names repeat across seasons,
    so a season is never chosen by name."""
    return {t.id for t in listed if season(t.start, zone) == year}


def check_new_name(name: str, listed: Sequence[Listed]) -> None:
    """Refuse a new tournament named like one not over: two of one name at once could not
    be told apart. A name may come back next season, and next month's tournament may be
    opened while this one is played (clubs open the entries on the night)."""
    if any(folding.loose(t.name) == folding.loose(name) and not t.done for t in listed):
        raise Refused("tournament_exists", name=name)


def rename(state: TournamentState, name: str, listed: Sequence[Listed]) -> None:
    """Give a tournament another name (a typo at its creation): not one it has, nor one
    another tournament not over has (`check_new_name`)."""
    if name == state.name:
        raise Refused("rename_tournament_same", tournament=state.name)
    others = [t for t in listed if t.id != state.id]
    check_new_name(name, others)
    state.name = name


def move(state: TournamentState, start: datetime, zone: str | tzinfo) -> bool:
    """Move a tournament not drawn yet to `start`; return whether it moves to another day.

    Confirmations and check-ins were given for the day it was to be played: on another
    day they no longer hold (a player who confirmed the 13th and cannot come on the 20th
    is no no-show, HGV-2.3.6), and the reminders to confirm and to check in go out again.
    """
    if state.status is not TournamentStatus.REGISTRATION:
        raise Refused("move_drawn", tournament=state.name)
    other_day = local(start, zone).date() != local(state.start, zone).date()
    state.start = start
    if other_day:
        for entry in state.entries.values():
            entry.confirmed_at = None
            entry.presence.clear()
        for key in (CONFIRM_REMINDER, CHECKIN_REMINDER):
            state.done.pop(key, None)  # sent for the old day: due sends them again
    return other_day


def cancel(state: TournamentState) -> None:
    """Call a tournament off; one already finished stays in the record."""
    if state.status is TournamentStatus.FINISHED:
        raise Refused("cannot_cancel_finished", tournament=state.name)
    if state.status is TournamentStatus.CANCELLED:
        raise Refused("already_cancelled", tournament=state.name)
    state.status = TournamentStatus.CANCELLED
