"""What the pictures show, as neutral data: group tables, brackets, schedule cards, rankings.

The views are built here from the tournament state (facts only: the rules already
decided ranks, winners and qualifiers) and drawn by `bot.pictures`, which knows fonts
and pixels but no rules. Every label is a catalog message, so a picture speaks the
club's language. A view travels through the outbox as JSON (`to_data` / `from_data`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, fields, is_dataclass
from typing import Any, Literal

from commands import views
from commands.replies import (
    Msg,
    Name,
    Param,
    Picture,
    Table,
    When,
    msg,
    param_data,
    param_from_data,
)
from tournament.model import EntryStatus, MatchStatus, PlayerId, Stage
from tournament.progress import qualifiers_of, standings_of
from tournament.state import Group, Match, TournamentState

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


def _name(names: Names, player: PlayerId | None) -> Param | None:
    return None if player is None else Name(names.get(player, f"#{player}"))


# -- group tables --


def group_view(state: TournamentState, group: Group, names: Names) -> GroupView:
    """Return a group's table as a picture shows it (HGV-7.2.2, HGV-7.2.3)."""
    table = standings_of(state, group)
    matches = [
        m
        for m in state.matches.values()
        if m.group == group.name and m.stage in (Stage.GROUP, Stage.TIEBREAK)
    ]
    played = sum(1 for m in matches if m.is_final)
    started = any(row.won or row.lost for row in table.rows)
    complete = bool(matches) and played == len(matches)
    qualifying = set(qualifiers_of(state, table)) if started else set()
    lateness: dict[PlayerId, int] = {}
    for penalty in state.penalties.values():
        match = state.matches.get(penalty.match)
        if not penalty.cancelled and match is not None and match.group == group.name:
            lateness[penalty.against] = lateness.get(penalty.against, 0) + penalty.points
    used: set[str] = set()
    lines = []
    order = (
        [(row.rank, row) for row in table.rows]
        if started
        else [(i, None) for i in range(1, len(group.players) + 1)]
    )
    for position, (rank, row) in enumerate(order):
        player = row.player if row is not None else group.players[position]
        entry = state.entries.get(player)
        badges: list[Badge] = []
        if row is not None and row.forfeits:
            badges.append(Badge("forfeit", msg("picture.badge.forfeit", count=row.forfeits)))
        if lateness.get(player):
            badges.append(Badge("penalty", msg("picture.badge.penalty", points=lateness[player])))
        status = entry.status if entry is not None else EntryStatus.ACTIVE
        if status is not EntryStatus.ACTIVE:
            badges.append(Badge(status.value, msg(f"picture.badge.{status.value}")))
        elif row is not None and row.removed:
            badges.append(Badge("removed", msg("picture.badge.removed")))
        used.update(b.kind for b in badges)
        lines.append(
            StandingLine(
                rank=rank,
                player=Name(names.get(player, f"#{player}")),
                won=row.won if row else 0,
                lost=row.lost if row else 0,
                points_for=row.points_for if row else 0,
                points_against=row.points_against if row else 0,
                badges=tuple(badges),
                qualified=player in qualifying,
                out=status is not EntryStatus.ACTIVE or bool(row and row.removed),
            )
        )
    legend = [msg("picture.legend.qualified" if complete else "picture.legend.qualifying")]
    legend += [
        msg(f"picture.legend.{kind}")
        for kind in ("forfeit", "penalty", "withdrawn", "no_show", "removed")
        if kind in used
    ]
    return GroupView(
        title=msg("title.group", group=group.name),
        subtitle=msg(
            "picture.group_progress",
            tournament=Name(state.name),
            played=played,
            total=len(matches),
        ),
        header=(
            msg("col.rank"),
            msg("col.player"),
            msg("picture.col.won_lost"),
            msg("picture.col.points"),
            msg("picture.col.difference"),
        ),
        lines=tuple(lines),
        legend=tuple(legend) if started else (),
        notes=views.tiebreak_notes(table, names, game=state.preset.game) if complete else (),
    )


# -- brackets --


def bracket_view(state: TournamentState, names: Names) -> BracketView | None:
    """Return the knockout bracket, and the consolation bracket when there is one."""
    sections = []
    main = [m for m in state.stage_matches(Stage.KNOCKOUT) if m.key is not None]
    third = next((m for m in state.stage_matches(Stage.THIRD_PLACE) if m.key), None)
    if main:
        sections.append(
            _section(state, msg("picture.knockout"), main, third, names, Stage.KNOCKOUT)
        )
    consolation = [m for m in state.stage_matches(Stage.CONSOLATION) if m.key is not None]
    if consolation:
        sections.append(
            _section(
                state, msg("picture.consolation"), consolation, None, names, Stage.CONSOLATION
            )
        )
    if not sections:
        return None
    return BracketView(
        title=msg("title.bracket", tournament=Name(state.name)),
        sections=tuple(sections),
        legend=(msg("picture.legend.bracket"),),
    )


def _section(
    state: TournamentState,
    title: Msg,
    matches: list[Match],
    third: Match | None,
    names: Names,
    stage: Stage,
) -> BracketSection:
    by_key = {m.key: m for m in matches}
    rounds = sorted({m.round for m in matches})
    labels = []
    for number in rounds:
        first = next(m for m in matches if m.round == number)
        labels.append(msg(f"round.{first.round_name or 'knockout'}"))
    play_in = any(m.round_name == "play_in" for m in matches)
    views = tuple(
        _match_view(state, m, by_key, names, play_in and m.round == rounds[0] + 1)
        for m in sorted(matches, key=lambda m: (m.round, m.index))
    )
    third_view = _match_view(state, third, by_key, names, False) if third else None
    return BracketSection(title, tuple(labels), rounds[0], views, third_view)


def _match_view(
    state: TournamentState,
    match: Match,
    by_key: dict[str | None, Match],
    names: Names,
    after_play_in: bool,
) -> BracketMatchView:
    decided = match.is_final and match.winner is not None
    shown = match.status not in (MatchStatus.SCHEDULED, MatchStatus.VOID) or decided
    lot_side = match.lot_winner if decided else None

    def side(player: PlayerId | None, source: str | None, colour: str) -> Side:
        feed = None
        if player is None and source is not None:
            feeder = by_key.get(source)
            loser = match.stage is Stage.THIRD_PLACE
            if feeder is not None:
                feed = msg(
                    "picture.loser_of" if loser else "picture.winner_of", match=feeder.number
                )
        score = None
        if shown and player is not None:
            score = match.white_score if colour == "white" else match.black_score
        return Side(
            player=_name(names, player),
            feed=feed,
            score=score,
            won=decided and player is not None and match.winner == player,
            lot=lot_side == colour,
            bye=after_play_in and source is None and player is not None,
        )

    if decided:
        status: MatchState = "done"
        note = (
            msg(f"status.{match.status.value}")
            if match.status is not MatchStatus.FINISHED
            else None
        )
    elif match.is_ready:
        status = "next"
        note = (
            msg(f"status.{match.status.value}")
            if match.status is not MatchStatus.SCHEDULED
            else msg("picture.at", start=When(match.start))
            if match.start
            else None
        )
    else:
        status = "waiting"
        note = msg(f"status.{match.status.value}") if match.is_final else None
    return BracketMatchView(
        number=match.number,
        key=match.key or "",
        round=match.round,
        white=side(match.white, match.white_from, "white"),
        black=side(match.black, match.black_from, "black"),
        state=status,
        white_from=match.white_from,
        black_from=match.black_from,
        note=note,
    )


# -- a player's card and the ranking --


def card_view(
    state: TournamentState, player: PlayerId, matches: list[Match], names: Names
) -> CardView:
    """Return a player's matches as a card: round, time, opponent, colour, result."""
    lines = []
    for m in matches:
        opponent = m.opponent_of(player)
        if m.is_final and m.winner is not None:
            status: MatchState = "done"
        elif m.is_ready:
            status = "next"
        else:
            status = "waiting"
        mine, theirs = m.score_of(player), (m.black_score if m.white == player else m.white_score)
        lines.append(
            CardLine(
                number=m.number,
                round=views.round_label(m),
                start=When(m.start) if m.start else "",
                opponent=views.name(names, opponent),
                piece=m.side_of(player),
                score=f"{mine}-{theirs}" if m.status is not MatchStatus.SCHEDULED else "",
                status=msg(f"status.{m.status.value}"),
                state=status,
            )
        )
    return CardView(
        title=msg("picture.card_title", player=Name(names.get(player, f"#{player}"))),
        subtitle=msg("title.schedule", tournament=Name(state.name)),
        header=(
            msg("col.match"),
            msg("col.round"),
            msg("col.time"),
            msg("picture.col.opponent"),
            msg("col.score"),
            msg("col.status"),
        ),
        lines=tuple(lines),
    )


def ranking_view(title: Msg, rows: list[tuple[int, str, float, int, bool]]) -> RankingView:
    """Return a ranking table: (rank, name, points, tournaments, prize-eligible) rows."""
    return RankingView(
        title=title,
        header=(
            msg("col.rank"),
            msg("col.player"),
            msg("col.points"),
            msg("col.tournaments"),
            msg("col.prize_eligible"),
        ),
        lines=tuple(
            RankingLine(rank, Name(name), points, played, eligible)
            for rank, name, points, played, eligible in rows
        ),
    )


# -- reply parts: the picture with its text twin --


def file_name(state: TournamentState, *parts: str) -> str:
    """Return a file name stem for a picture of the tournament: "spring-cup-group-1"."""
    return "-".join(_slug(part) for part in (state.name, *parts) if _slug(part)) or "picture"


def _slug(text: str) -> str:
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")[:40]


def group_picture(state: TournamentState, group: Group, names: Names) -> Picture:
    """Return a group's table as a picture, with the text table as its twin."""
    return Picture(
        name=file_name(state, "group", group.name),
        view=group_view(state, group, names),
        caption=msg("picture.caption.group", tournament=Name(state.name), group=group.name),
        fallback=(views.group_table(state, group, names),),
    )


def bracket_picture(state: TournamentState, names: Names, *, text: bool = True) -> Picture | None:
    """Return the bracket as a picture; its twin is the bracket table (none if not `text`)."""
    view = bracket_view(state, names)
    if view is None:
        return None
    return Picture(
        name=file_name(state, "bracket"),
        view=view,
        caption=msg("title.bracket", tournament=Name(state.name)),
        fallback=(views.bracket_table(state, names),) if text else (),
    )


def card_picture(
    state: TournamentState, player: PlayerId, matches: list[Match], names: Names
) -> Picture:
    """Return a player's schedule card, with the schedule table as its twin."""
    return Picture(
        name=file_name(state, "matches", names.get(player, str(player))),
        view=card_view(state, player, matches, names),
        caption=msg("title.schedule", tournament=Name(state.name)),
        fallback=(views.schedule_table(state, matches, names),),
    )


def ranking_picture(
    name: str, table: Table, rows: list[tuple[int, str, float, int, bool]]
) -> Picture:
    """Return a ranking as a picture, with its text table as its twin."""
    return Picture(
        name=name, view=ranking_view(table.title, rows), caption=table.title, fallback=(table,)
    )


# -- JSON for the outbox --


def to_data(value: Any) -> Any:
    """Return a view (or any value inside one) as JSON-ready data."""
    if is_dataclass(value) and type(value).__name__ in _VIEWS:
        data = {f.name: to_data(getattr(value, f.name)) for f in fields(value)}
        data["_v"] = type(value).__name__
        return data
    if isinstance(value, tuple):
        return [to_data(v) for v in value]
    if value is None or isinstance(value, bool):
        return value
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
