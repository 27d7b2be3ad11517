"""The tournament aggregate: the facts one tournament night is made of.

Use cases load a `TournamentState`, call the rule functions that change it and return
events, and storage saves what changed. Everything here is a fact with its time; what
follows from facts and time (lateness, forfeits, reminders) is computed in `due`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

from tournament.model import (
    FINAL_STATUSES,
    EntryStatus,
    MatchStatus,
    PlayerId,
    Result,
    Stage,
    TournamentStatus,
)
from tournament.preset import Preset
from tournament.scoring import GameRecord, Side


@dataclass(slots=True)
class Span:
    """A closed-open interval of time; `end` None means still open."""

    start: datetime
    end: datetime | None = None

    def contains(self, moment: datetime) -> bool:
        return self.start <= moment and (self.end is None or moment < self.end)


@dataclass(slots=True)
class Entry:
    player: PlayerId
    registered_at: datetime
    status: EntryStatus = EntryStatus.ACTIVE
    approved: bool = True
    confirmed_at: datetime | None = None
    withdrawn_at: datetime | None = None
    seed: int | None = None
    born: date | None = None
    novice: bool = False
    knockout_forfeit: bool = False  # HGV-2.3.8: loses the knockout-stage ranking points
    presence: list[Span] = field(default_factory=list)

    @property
    def confirmed(self) -> bool:
        return self.confirmed_at is not None

    @property
    def checked_in(self) -> bool:
        return bool(self.presence)

    def present_at(self, moment: datetime) -> bool:
        return any(span.contains(moment) for span in self.presence)

    def present_now(self) -> bool:
        return bool(self.presence) and self.presence[-1].end is None

    def arrived_by(self, moment: datetime) -> datetime | None:
        """Return the first moment at or after `moment` from which the player is present."""
        for span in self.presence:
            if span.contains(moment):
                return moment
            if span.start >= moment:
                return span.start
        return None


@dataclass(slots=True)
class Report:
    """A result one player reported, pending the opponent (CLUB-REPORT)."""

    by: PlayerId
    white: int
    black: int
    at: datetime
    seq: int
    tiebreaks: tuple[tuple[int, int], ...] = ()
    lot_winner: Side | None = None
    # The opponent's own score, when they contradicted or disputed this report and then
    # gave theirs (CLUB-REPORT): the director sees both.
    counter: Report | None = None


@dataclass(slots=True)
class Match:
    number: int
    stage: Stage
    round: int
    length: int
    white: PlayerId | None
    black: PlayerId | None
    start: datetime | None
    group: str | None = None
    key: str | None = None  # the bracket key of knockout matches
    round_name: str | None = None
    index: int = 0  # position within its bracket round
    white_from: str | None = None  # bracket key whose winner (or loser) fills this side
    black_from: str | None = None
    created_at: datetime | None = None  # when its start time was published
    status: MatchStatus = MatchStatus.SCHEDULED
    white_score: int = 0
    black_score: int = 0
    winner: PlayerId | None = None
    forfeited_by: frozenset[PlayerId] = frozenset()
    finished_at: datetime | None = None
    report: Report | None = None
    # The last report number given in this match: never reused, even after the report
    # is cleared (a correction, a forfeit), since an Accept button names its report.
    report_seq: int = 0
    disputed_by: PlayerId | None = None
    games: tuple[GameRecord, ...] = ()
    tiebreaks: tuple[tuple[int, int], ...] = ()
    lot_winner: Side | None = None
    pauses: list[Span] = field(default_factory=list)

    @property
    def players(self) -> tuple[PlayerId, ...]:
        return tuple(p for p in (self.white, self.black) if p is not None)

    @property
    def is_final(self) -> bool:
        return self.status in FINAL_STATUSES

    @property
    def is_ready(self) -> bool:
        return self.white is not None and self.black is not None and self.start is not None

    def involves(self, player: PlayerId) -> bool:
        return player in (self.white, self.black)

    def opponent_of(self, player: PlayerId) -> PlayerId | None:
        return self.black if player == self.white else self.white

    def side_of(self, player: PlayerId) -> str:
        return "white" if player == self.white else "black"

    def score_of(self, player: PlayerId) -> int:
        return self.white_score if player == self.white else self.black_score

    def result(self) -> Result | None:
        """Return the final result for standings, or None while undecided or void."""
        if not self.is_final or self.status is MatchStatus.VOID:
            return None
        if self.white is None or self.black is None:
            return None
        return Result(
            white=self.white,
            black=self.black,
            white_score=self.white_score,
            black_score=self.black_score,
            winner=self.winner,
            forfeited_by=self.forfeited_by,
        )


@dataclass(slots=True)
class Penalty:
    """Points awarded to the present opponent for one lateness step (HGV-2.3.1)."""

    key: str
    match: int
    against: PlayerId
    points: int
    at: datetime
    cancelled: bool = False


@dataclass(slots=True)
class Group:
    name: str
    players: tuple[PlayerId, ...]


@dataclass(slots=True)
class DrawRecord:
    method: str
    seed: int
    fingerprint: str
    ranking: tuple[PlayerId, ...]
    players: tuple[PlayerId, ...]
    at: datetime


@dataclass(slots=True)
class Placement:
    place: int | None  # None: took part but has no place (a knockout forfeit)
    player: PlayerId
    points: str  # ranking points as a decimal string, e.g. "2.30"


@dataclass(slots=True)
class TournamentState:
    id: int
    name: str
    preset: Preset
    start: datetime
    seed: int
    status: TournamentStatus = TournamentStatus.REGISTRATION
    official: bool = True
    entries: dict[PlayerId, Entry] = field(default_factory=dict)
    groups: list[Group] = field(default_factory=list)
    matches: dict[int, Match] = field(default_factory=dict)
    penalties: dict[str, Penalty] = field(default_factory=dict)
    done: dict[str, datetime] = field(default_factory=dict)
    created_at: datetime | None = None
    draw: DrawRecord | None = None
    placements: list[Placement] = field(default_factory=list)
    finished_at: datetime | None = None
    # Derived values remembered between calls (group standings), never stored: each
    # entry carries the inputs it was computed from and is recomputed when they change.
    memo: dict[str, tuple[object, object]] = field(default_factory=dict, repr=False, compare=False)

    # -- queries used by every rule module --

    def entry(self, player: PlayerId) -> Entry | None:
        return self.entries.get(player)

    def playing(self) -> list[PlayerId]:
        """Return the entries who play: active, approved, in registration order."""
        return [
            e.player
            for e in sorted(self.entries.values(), key=lambda e: (e.registered_at, e.player))
            if e.status is EntryStatus.ACTIVE and e.approved
        ]

    def matches_of(self, player: PlayerId) -> list[Match]:
        return sorted(
            (m for m in self.matches.values() if m.involves(player)),
            key=lambda m: (m.start or self.start, m.number),
        )

    def open_matches_of(self, player: PlayerId) -> list[Match]:
        return [m for m in self.matches_of(player) if not m.is_final and m.is_ready]

    def next_match_number(self) -> int:
        return max(self.matches, default=0) + 1

    def stage_matches(self, *stages: Stage) -> list[Match]:
        return sorted(
            (m for m in self.matches.values() if m.stage in stages), key=lambda m: m.number
        )

    def group_of(self, player: PlayerId) -> Group | None:
        return next((g for g in self.groups if player in g.players), None)

    def penalty_points(self, match: Match, player: PlayerId) -> int:
        """Return the lateness points `player` received in `match` (not cancelled)."""
        opponent = match.opponent_of(player)
        return sum(
            p.points
            for p in self.penalties.values()
            if p.match == match.number and p.against == opponent and not p.cancelled
        )


def minutes(value: int | float) -> timedelta:
    return timedelta(minutes=value)
