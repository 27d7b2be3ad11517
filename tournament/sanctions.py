"""Sanctions: a suspension from the club's next tournament (HGV-2.3.5, HGV-2.3.6).

A suspension arises in one tournament and bars the player from the club's next one by
start time. When that tournament does not exist yet, it is bound when it is created.
Directors excuse a no-show (CLUB-NO-SHOW) or lift a sanction, always with a reason.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from tournament.model import PlayerId, Refused, TournamentStatus


@dataclass(slots=True)
class Sanction:
    id: int
    player: PlayerId
    reason: str  # "no_show" | "left" | "director"
    origin: int | None  # the tournament it arose in
    applies_to: int | None  # the tournament it bars the player from, once known
    created_at: datetime
    note: str = ""
    kind: str = "suspension"
    active: bool = True
    ended_at: datetime | None = None
    ended_by: str = ""  # "excused" | "lifted"
    ended_note: str = ""


def next_tournament(after: datetime, tournaments: Sequence[tuple[int, datetime]]) -> int | None:
    """Return the id of the club's first tournament starting after `after`."""
    later = sorted((start, tid) for tid, start in tournaments if start > after)
    return later[0][1] if later else None


def bind_pending(
    sanctions: Iterable[Sanction],
    tournament: int,
    starts: datetime,
    origin_starts: dict[int, datetime],
) -> list[Sanction]:
    """Bind unbound active suspensions to a newly created tournament that follows them."""
    bound = []
    for sanction in sanctions:
        if not sanction.active or sanction.applies_to is not None:
            continue
        origin_start = origin_starts.get(sanction.origin) if sanction.origin else None
        if origin_start is None or starts > origin_start:
            sanction.applies_to = tournament
            bound.append(sanction)
    return bound


def standing(sanction: Sanction, statuses: Mapping[int, str]) -> str:
    """Return where a sanction stands: "active", "served", "lifted" or "excused".

    A suspension is served once the tournament it bars the player from has been drawn
    without them (`statuses` maps the club's tournaments to their status): they sat it
    out, finished or not (a Last Chance final never reported left February "knockout"
    for ever, and March's /me said the suspension still stood). A cancelled one is not
    served: cancelling moves the suspension on to the next tournament.
    """
    if not sanction.active:
        return sanction.ended_by or "lifted"
    target = statuses.get(sanction.applies_to) if sanction.applies_to is not None else None
    if target in _DRAWN:
        return "served"
    return "active"


_DRAWN = frozenset({TournamentStatus.GROUPS, TournamentStatus.KNOCKOUT, TournamentStatus.FINISHED})


def suspension_for(
    sanctions: Iterable[Sanction], player: PlayerId, tournament: int | None
) -> Sanction | None:
    """Return the active suspension that bars `player` from `tournament`, if any (None:
    the club's next tournament, not created yet)."""
    return next(
        (s for s in sanctions if s.active and s.player == player and s.applies_to == tournament),
        None,
    )


def barred_from(sanctions: Iterable[Sanction], tournament: int) -> frozenset[PlayerId]:
    """Return the players an active suspension bars from `tournament` (HGV-2.3.5/6): the
    draw leaves them out, entered before the suspension or not."""
    return frozenset(s.player for s in sanctions if s.active and s.applies_to == tournament)


def end(sanction: Sanction, at: datetime, *, how: str, note: str) -> Sanction:
    """End a sanction: "excused" (a no-show with notice) or "lifted" by a director."""
    if not sanction.active:
        raise Refused("sanction_not_active")
    if not note.strip():
        raise Refused("reason_required")
    sanction.active = False
    sanction.ended_at = at
    sanction.ended_by = how
    sanction.ended_note = note
    return sanction


def caused_by(sanctions: Iterable[Sanction], player: PlayerId, tournament: int) -> list[Sanction]:
    """Return the active suspensions a departure from `tournament` caused (HGV-2.3.5/6)."""
    return [
        s
        for s in sanctions
        if s.active
        and s.player == player
        and s.origin == tournament
        and s.reason in ("no_show", "left")
    ]


def excusable(sanctions: Iterable[Sanction], player: PlayerId) -> list[Sanction]:
    """Return the player's active no-show suspensions, which `/excuse` ends (CLUB-NO-SHOW)."""
    return [s for s in sanctions if s.active and s.player == player and s.reason == "no_show"]
