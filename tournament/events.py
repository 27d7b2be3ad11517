"""What happened: the events rule functions return for messages and the audit log.

Every event carries `at`, the time it took effect (for an automatic effect, the time it
fell due, even when a late sweep applies it). Events name players by id; the message
catalog renders them in the club's language.
"""

from __future__ import annotations

from datetime import datetime

from tournament.frozen import frozen
from tournament.model import MatchStatus, PlayerId
from tournament.scoring import Side


@frozen
class Event:
    at: datetime


@frozen
class ConfirmReminder(Event):
    players: tuple[PlayerId, ...]  # entries who have not confirmed yet


@frozen
class CheckinOpen(Event):
    players: tuple[PlayerId, ...]  # confirmed entries not yet checked in


@frozen
class MatchReminder(Event):
    match: int
    white: PlayerId
    black: PlayerId
    start: datetime


@frozen
class LatenessPoint(Event):
    match: int
    against: PlayerId  # the late player
    to: PlayerId  # the present opponent
    points: int
    minutes_late: int
    white_score: int
    black_score: int


@frozen
class MatchForfeited(Event):
    match: int
    losers: tuple[PlayerId, ...]  # two for a double forfeit (CLUB-BOTH-ABSENT)
    winner: PlayerId | None
    reason: str  # "late" | "no_show" | "left" | "director" | "withdrawn"


@frozen
class NoShow(Event):
    player: PlayerId  # confirmed, never checked in, first match lost (CLUB-NO-SHOW)


@frozen
class SanctionRecorded(Event):
    player: PlayerId
    reason: str  # "no_show" | "left" | "director"
    note: str = ""


@frozen
class ReportPending(Event):
    match: int
    by: PlayerId
    opponent: PlayerId
    white_score: int
    black_score: int
    accept_by: datetime


@frozen
class ReportDisputed(Event):
    match: int
    by: PlayerId
    reason: str = ""  # the player's own words, if any


@frozen
class MatchFinished(Event):
    match: int
    white: PlayerId
    black: PlayerId
    white_score: int
    black_score: int
    winner: PlayerId
    how: str  # "accepted" | "timeout" | "director" | "agreed"
    reason: str = ""  # why, when a director set the result and said


@frozen
class GroupsDrawn(Event):
    groups: int
    matches: int
    seed: int
    # Entered, but suspended from this tournament: taken out, not drawn (HGV-2.3.6).
    barred: tuple[PlayerId, ...] = ()
    # Entered, but neither confirmed nor checked in: not drawn, and owing nothing.
    left_out: tuple[PlayerId, ...] = ()


@frozen
class ExtraGamesScheduled(Event):
    group: str
    players: tuple[PlayerId, ...]
    matches: tuple[int, ...]
    again: bool = False  # the extra games so far left them level: a lot may settle it
    paused: bool = False  # nobody played the last round (both absent): clocks stand


@frozen
class ExtraGamesVoided(Event):
    """Extra games a correction made unnecessary: they no longer count (NAV-TIE)."""

    group: str
    matches: tuple[int, ...]


@frozen
class TieSettledByLot(Event):
    """A director settled a tie by lot (NAV-TIE); `order` is the drawn order, best first."""

    group: str
    order: tuple[PlayerId, ...]
    seed: int


@frozen
class KnockoutStarted(Event):
    qualifiers: int
    matches: int


@frozen
class MatchReady(Event):
    match: int
    white: PlayerId
    black: PlayerId
    start: datetime
    round_name: str


@frozen
class PlayerReplaced(Event):
    match: int
    forfeiter: PlayerId
    replacement: PlayerId  # HGV-2.3.8: the last player the forfeiter eliminated


@frozen
class TournamentFinished(Event):
    champion: PlayerId | None
    youngest: tuple[PlayerId, ...] = ()  # NAV-PRIZE, when the preset awards it
    veterans: tuple[PlayerId, ...] = ()


@frozen
class ResultCorrected(Event):
    """A director corrected, voided or reopened a match (HGV-4.8); `before` and `after`
    are the scores white first, `change` says which."""

    match: int
    change: str  # "score" | "void" | "reopen"
    before: tuple[int, int]
    after: tuple[int, int]
    was: MatchStatus  # the match's status before
    reason: str = ""
    # The level score's tiebreak phases and lot before (WAR-V): "was 2-2 (3-1)", not "2-2".
    before_tiebreaks: tuple[tuple[int, int], ...] = ()
    before_lot: Side | None = None


@frozen
class PairingsConflict(Event):
    """Matches already under way or played whose pairing the results no longer give."""

    matches: tuple[int, ...]


@frozen
class MatchesHeld(Event):
    """Knockout matches not yet played wait: a correction reopened `groups` they depend on."""

    matches: tuple[int, ...]
    groups: tuple[str, ...]


@frozen
class LastChanceCalledOff(Event):
    """The "Last Chance" no longer takes place: fewer than two players are left for it
    (HGV-7.4.13). `matches` are those of it already called: their players may be waiting."""

    matches: tuple[int, ...]


@frozen
class MatchReset(Event):
    """A match under way or played starts afresh between new players (a confirmed change)."""

    match: int
    white: PlayerId | None
    black: PlayerId | None


@frozen
class PlacementsChanged(Event):
    """A correction after the finish changed the placements and ranking points."""

    champion: PlayerId | None
    previous_champion: PlayerId | None


@frozen
class TournamentReopened(Event):
    """A finished tournament has an undecided match again: its placements are withdrawn."""


@frozen
class EntryReinstated(Event):
    """A director undid a withdrawal, no-show or removal; `reopened` lists restored matches."""

    player: PlayerId
    was: str
    reopened: tuple[int, ...]
