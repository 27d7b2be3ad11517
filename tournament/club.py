"""A club and its people: the identities every tournament refers to."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from tournament.model import PlayerId


@dataclass(slots=True)
class Club:
    id: int
    name: str
    timezone: str  # an IANA name, e.g. "America/Caracas"
    language: str  # "en" | "es" | "ro" | "pl"
    pictures: bool = True  # tables and brackets as pictures where a chat can show them
    approval: bool | None = None  # members approved by a director (HGV-1.4); None: preset's


@dataclass(slots=True)
class Player:
    """A person of a club; they may have zero or more chat accounts."""

    id: PlayerId
    club_id: int
    name: str
    created_at: datetime
    born: date | None = None
    member: bool = True  # approved as a member of the club (HGV-1.4)
    novice: bool = False
    language: str | None = None  # of their direct messages; None: the club's language


@dataclass(frozen=True, slots=True)
class Account:
    """One chat identity of a player: ("telegram", "123456")."""

    platform: str
    external_id: str
    player_id: PlayerId
