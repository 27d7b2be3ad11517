"""The tournament aggregate: the facts one tournament night is made of.

Use cases load a `TournamentState`, call the rule functions that change it and return
events, and storage saves what changed. Everything here is a fact with its time; what
follows from facts and time (lateness, forfeits, reminders) is computed in `due`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from functools import cache
from itertools import islice, pairwise
from operator import attrgetter
from typing import Any

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
    def is_paused(self) -> bool:
        """Say whether the match's lateness clock stands now (a pause not ended)."""
        return bool(self.pauses) and self.pauses[-1].end is None

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
        status = self.status
        if status not in FINAL_STATUSES or status is MatchStatus.VOID:
            return None
        if self.white is None or self.black is None:
            return None
        # Positional: this is called for every group match a table reads.
        return Result(
            self.white,
            self.black,
            self.white_score,
            self.black_score,
            self.winner,
            self.forfeited_by,
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


_NUMBER = attrgetter("number")


class MatchIndex:
    """The matches by stage and by (stage, group), each list in match-number order.

    Built once from `TournamentState.matches` and kept with the state, so a settle reads
    the matches it needs instead of sorting them all on every query. A match's number,
    stage and group never change once it exists, and matches are only ever added (with a
    number above every other), so the index stays right while the count does; new
    matches are appended as they come (`TournamentState.indexed`). Everything else a
    match holds is read from the match itself. The lists are shared: never change them.
    """

    __slots__ = ("_merged", "by_group", "by_stage", "size", "source", "top")

    def __init__(self, matches: dict[int, Match]) -> None:
        self.source = matches
        self.size = 0
        self.top = 0
        self.by_stage: dict[Stage, list[Match]] = {}
        self.by_group: dict[tuple[Stage, str | None], list[Match]] = {}
        self._merged: dict[tuple[Stage, ...], list[Match]] = {}
        ordered = list(matches.values())
        if any(a.number > b.number for a, b in pairwise(ordered)):
            ordered.sort(key=lambda m: m.number)
        self.extend(ordered)

    def __deepcopy__(self, memo: dict[int, Any]) -> MatchIndex:
        # A copy of the state has copies of the matches: it builds its own index.
        return MatchIndex({})

    def extend(self, matches: Iterable[Match]) -> None:
        """Add matches numbered above every indexed one, in number order."""
        by_stage, by_group = self.by_stage, self.by_group
        top, size = self.top, self.size
        # Numbered above every indexed match, a new match goes at the end of each merged
        # list of its stage too: an extra game added no longer costs a sort of the whole
        # group stage at the next query.
        merged = self._merged.items()
        for match in matches:
            stage = match.stage
            listed = by_stage.get(stage)
            if listed is None:
                listed = by_stage[stage] = []
            listed.append(match)
            key = (stage, match.group)
            listed = by_group.get(key)
            if listed is None:
                listed = by_group[key] = []
            listed.append(match)
            for stages, listed in merged:
                if stage in stages:
                    listed.append(match)
            if match.number > top:
                top = match.number
            size += 1
        self.top, self.size = top, size

    def stage(self, *stages: Stage) -> Sequence[Match]:
        """Return the matches of `stages`, by number."""
        if len(stages) == 1:
            return self.by_stage.get(stages[0], [])
        merged = self._merged.get(stages)
        if merged is None:
            merged = sorted(
                (m for s in dict.fromkeys(stages) for m in self.by_stage.get(s, [])),
                key=_NUMBER,
            )
            self._merged[stages] = merged
        return merged

    def group(self, name: str | None, *stages: Stage) -> Iterable[Match]:
        """Return a group's matches of `stages`, stage by stage, each by number."""
        for stage in stages:
            yield from self.by_group.get((stage, name), ())


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
    # Derived values remembered between calls (the group stage's facts, group tables,
    # extra-game checks, the main bracket), never stored: each entry carries the facts
    # it was computed from (values, never identities alone) and is recomputed when they
    # change.
    memo: dict[str, tuple[object, object]] = field(default_factory=dict, repr=False, compare=False)
    index: MatchIndex | None = field(default=None, init=False, repr=False, compare=False)

    def indexed(self) -> MatchIndex:
        """Return the match index, kept with the state and brought up to date.

        Matches added since (at the end of `matches`, numbered above the others) are
        appended; anything else (another dict, a match taken away) builds it afresh.
        """
        index = self.index
        matches = self.matches
        if index is not None and index.source is matches and index.size == len(matches):
            return index
        if index is not None and index.source is matches and index.size < len(matches):
            # Usually numbered on from the top (`next_match_number`): no need to scan.
            # A match is kept under its number, so these are in number order already.
            missing = len(matches) - index.size
            new: list[Match] = []
            found = matches.get(index.top + 1)
            while found is not None:
                new.append(found)
                found = matches.get(found.number + 1) if len(new) < missing else None
            if len(new) == missing:
                index.extend(new)
                return index
            new = list(islice(matches.values(), index.size, None))
            if new[0].number > index.top and all(a.number < b.number for a, b in pairwise(new)):
                index.extend(new)
                return index
        index = self.index = MatchIndex(matches)
        return index

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
        return self.indexed().top + 1

    def stage_matches(self, *stages: Stage) -> list[Match]:
        return list(self.indexed().stage(*stages))

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


@cache
def minutes(value: int | float) -> timedelta:
    """Return `value` minutes (the presets' few values, each made once: the due scan asks
    for them at every match of every command)."""
    return timedelta(minutes=value)
