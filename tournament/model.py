"""Value types shared by every rule module of the tournament core."""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

PlayerId = int
"""A player of the club. Storage ids; tests use small integers."""

NOBODY: frozenset[PlayerId] = frozenset()
"""No player: the one empty set every unforfeited match shares. Each `frozenset()` is a
new object the garbage collector tracks; a 512-player night made 1,171 of them."""


class Stage(StrEnum):
    GROUP = "group"
    KNOCKOUT = "knockout"
    THIRD_PLACE = "third_place"
    CONSOLATION = "consolation"
    TIEBREAK = "tiebreak"


class MatchStatus(StrEnum):
    SCHEDULED = "scheduled"
    PLAYING = "playing"
    PENDING = "pending"
    DISPUTED = "disputed"
    FINISHED = "finished"
    FORFEIT = "forfeit"
    DOUBLE_FORFEIT = "double_forfeit"
    VOID = "void"

    @property
    def is_final(self) -> bool:
        return self in FINAL_STATUSES


FINAL_STATUSES = frozenset(
    {MatchStatus.FINISHED, MatchStatus.FORFEIT, MatchStatus.DOUBLE_FORFEIT, MatchStatus.VOID}
)


class EntryStatus(StrEnum):
    ACTIVE = "active"
    WITHDRAWN = "withdrawn"
    NO_SHOW = "no_show"
    REMOVED = "removed"


class TournamentStatus(StrEnum):
    REGISTRATION = "registration"
    GROUPS = "groups"
    KNOCKOUT = "knockout"
    FINISHED = "finished"
    CANCELLED = "cancelled"  # called off by a director; kept for the record


class Result(NamedTuple):
    """The final result of one match between two players, as standings need it.

    `forfeited_by` holds the player(s) who lost by forfeit: one for a forfeit, both for
    a double forfeit (then `winner` is None). Scores include lateness points.
    """

    # A named tuple, not a frozen dataclass: a settle makes one for every group match a
    # table reads, and a frozen dataclass sets each field through object.__setattr__.

    white: PlayerId
    black: PlayerId
    white_score: int
    black_score: int
    winner: PlayerId | None
    forfeited_by: frozenset[PlayerId] = frozenset()

    @property
    def players(self) -> tuple[PlayerId, PlayerId]:
        return (self.white, self.black)

    def score_of(self, player: PlayerId) -> int:
        return self.white_score if player == self.white else self.black_score

    def opponent_of(self, player: PlayerId) -> PlayerId:
        return self.black if player == self.white else self.white

    @property
    def loser(self) -> PlayerId | None:
        if self.winner is None:
            return None
        return self.opponent_of(self.winner)


class Refused(ValueError):
    """A rule refuses an operation; `code` and `params` say why, for the message catalog."""

    def __init__(self, code: str, **params: object) -> None:
        super().__init__(code if not params else f"{code} {params}")
        self.code = code
        self.params = params
