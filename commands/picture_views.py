"""What a picture shows, as data: the views of group tables, brackets, match cards and
rankings, and their JSON form in the outbox. Drawn by bot/pictures; built by
commands/pictures from a tournament."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, Literal

from commands.messages import PLAIN_JSON, Msg, Param, param_data, param_from_data
from tournament.model import PlayerId

Names = Mapping[PlayerId, str]
MatchState = Literal["done", "next", "waiting"]


@dataclass(frozen=True, slots=True)
class Badge:
    """A short marker after a name: forfeit, lateness points, withdrawn, no-show, removed."""

    kind: str
    label: Msg


@dataclass(frozen=True, slots=True)
class StandingLine:
    rank: int
    player: Param
    won: int
    lost: int
    points_for: int
    points_against: int
    badges: tuple[Badge, ...]
    qualified: bool  # in a qualifying place (for good once the group is complete)
    out: bool  # withdrawn, no-show or removed: shown struck through


@dataclass(frozen=True, slots=True)
class GroupView:
    title: Msg
    subtitle: Msg
    header: tuple[Msg, ...]  # rank, player, won-lost, points, difference
    lines: tuple[StandingLine, ...]
    legend: tuple[Msg, ...]
    notes: tuple[Msg, ...]


@dataclass(frozen=True, slots=True)
class Side:
    """One side of a bracket match: a player, or where the player will come from."""

    player: Param | None
    feed: Msg | None  # "winner of 12" while the player is not known
    score: int | None
    won: bool
    lot: bool  # won on a lot (draughts tiebreak)
    bye: bool  # came straight to this round while others played in


@dataclass(frozen=True, slots=True)
class BracketMatchView:
    number: int
    key: str
    round: int
    white: Side
    black: Side
    state: MatchState
    white_from: str | None
    black_from: str | None
    note: Msg | None  # a start time, "forfeit", "void"


@dataclass(frozen=True, slots=True)
class BracketSection:
    title: Msg
    rounds: tuple[Msg, ...]  # column labels, first round first
    first_round: int
    matches: tuple[BracketMatchView, ...]
    third_place: BracketMatchView | None


@dataclass(frozen=True, slots=True)
class BracketView:
    title: Msg
    sections: tuple[BracketSection, ...]
    legend: tuple[Msg, ...]


@dataclass(frozen=True, slots=True)
class CardLine:
    number: int
    round: Msg
    start: Param
    opponent: Param
    piece: str  # the colour the player has: "white" or "black"
    score: str
    status: Msg
    state: MatchState


@dataclass(frozen=True, slots=True)
class CardView:
    title: Msg
    subtitle: Msg
    header: tuple[Msg, ...]
    lines: tuple[CardLine, ...]


@dataclass(frozen=True, slots=True)
class RankingLine:
    rank: int
    player: Param
    points: Param  # a float, written as the club's language writes decimals
    tournaments: int
    eligible: bool


@dataclass(frozen=True, slots=True)
class RankingView:
    title: Msg
    header: tuple[Msg, ...]
    lines: tuple[RankingLine, ...]


PictureView = GroupView | BracketView | CardView | RankingView
_VIEWS: dict[str, type] = {
    cls.__name__: cls
    for cls in (
        Badge,
        StandingLine,
        GroupView,
        Side,
        BracketMatchView,
        BracketSection,
        BracketView,
        CardLine,
        CardView,
        RankingLine,
        RankingView,
    )
}


# Each view's field names, read once: a group table is ~700 values (issue 17).
_FIELDS: dict[type, tuple[str, ...]] = {
    cls: tuple(f.name for f in fields(cls)) for cls in _VIEWS.values()
}


def to_data(value: Any) -> Any:
    """Return a view (or any value inside one) as JSON-ready data."""
    kind = type(value)
    if kind in PLAIN_JSON:
        return value
    names = _FIELDS.get(kind)
    if names is not None:
        data: dict[str, Any] = {}
        for name in names:
            field_value = getattr(value, name)
            data[name] = field_value if type(field_value) in PLAIN_JSON else to_data(field_value)
        data["_v"] = kind.__name__
        return data
    if isinstance(value, tuple):
        return [v if type(v) in PLAIN_JSON else to_data(v) for v in value]
    return param_data(value)


def from_data(data: Any) -> Any:
    """Rebuild a view from `to_data` output."""
    if isinstance(data, dict) and "_v" in data:
        cls = _VIEWS.get(data["_v"])
        if cls is None:
            raise ValueError(f"not a picture view: {data['_v']!r}")
        return cls(**{k: from_data(v) for k, v in data.items() if k != "_v"})
    if isinstance(data, list):
        return tuple(from_data(v) for v in data)
    if data is None or isinstance(data, bool):
        return data
    return param_from_data(data)
