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


def member_on_joining(*, by_director: bool) -> bool:
    """Return whether a new player joins as a member: membership is a director's decision
    (HGV-1.4), so a director who registers is one and anyone else waits for approval."""
    return by_director


def member_after_claim(player: Player, *, by_director: bool, name_is_proof: bool) -> bool:
    """Return whether a member entered without an account stays one when an account takes
    the name: where typing the name is all the proof (the console), anyone could, so a
    director confirms once that this account is that person (HGV-1.4)."""
    if name_is_proof and not by_director:
        return False
    return player.member


PRIVATE = "user:"  # the stored form of a person's private chat: "user:<their id>"


@dataclass(frozen=True, slots=True)
class ChatRef:
    """Where a message goes: a club's group or server (`id`), or a person's private chat
    (`private`, `id` their user id). Stored and queued as text: "-100123", "user:42"."""

    id: str
    private: bool = False

    @classmethod
    def parse(cls, text: str) -> ChatRef:
        """Read the stored form."""
        if text.startswith(PRIVATE):
            return cls(text.removeprefix(PRIVATE), private=True)
        return cls(text)

    @classmethod
    def of_user(cls, user: str) -> ChatRef:
        """Return a person's private chat."""
        return cls(user, private=True)

    def __str__(self) -> str:
        return f"{PRIVATE}{self.id}" if self.private else self.id


@dataclass(frozen=True, slots=True)
class AccountRef:
    """One chat identity of a player: ("telegram", "123456"), written "telegram:123456"."""

    platform: str
    user: str

    @classmethod
    def parse(cls, text: str) -> AccountRef | None:
        """Read "platform:user"; None when either part is missing."""
        platform, colon, user = text.strip().partition(":")
        platform, user = platform.strip().lower(), user.strip()
        return cls(platform, user) if colon and platform and user else None

    def __str__(self) -> str:
        return f"{self.platform}:{self.user}"
