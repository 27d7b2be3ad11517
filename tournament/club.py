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


@dataclass(slots=True)
class Player:
    """A person of a club; they may have zero or more chat accounts."""

    id: PlayerId
    club_id: int
    name: str
    created_at: datetime
    born: date | None = None
    member: bool = True
    novice: bool = False


@dataclass(frozen=True, slots=True)
class Account:
    """One chat identity of a player: ("telegram", "123456")."""

    platform: str
    external_id: str
    player_id: PlayerId
