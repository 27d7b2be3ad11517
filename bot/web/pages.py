"""What the public pages show (INTERFACE §6), built from the same views as the chat.

The HTML shows the pictures' view models (group tables, the bracket, the ranking) and
the chat's match lines; the JSON is the export's tournament object (INTERFACE §4). Only
display names ever appear, never a chat or account id.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal
from zoneinfo import ZoneInfo

from commands import pictures, views
from commands.export import season_rankings, tournament_object
from commands.replies import Msg, Name, Param, When, msg
from commands.web import club_path, join, tournament_path
from storage.unit_of_work import SqlUnitOfWork
from tournament import calendar
from tournament.club import Club
from tournament.model import MatchStatus, PlayerId, Stage, TournamentStatus
from tournament.state import Match, TournamentState

Kind = Literal["live", "next", "past"]
KINDS: tuple[Kind, ...] = ("live", "next", "past")
_KIND_OF: dict[TournamentStatus, Kind] = {
    TournamentStatus.GROUPS: "live",
    TournamentStatus.KNOCKOUT: "live",
    TournamentStatus.REGISTRATION: "next",
}


@dataclass(frozen=True, slots=True)
class TournamentLink:
    name: str
    start: datetime
    status: Msg
    kind: Kind
    path: str


@dataclass(frozen=True, slots=True)
class ClubPage:
    club: Club
    path: str
    tournaments: tuple[TournamentLink, ...]
    rankings: tuple[pictures.RankingView, ...]
    data: dict[str, Any]  # the JSON answer


@dataclass(frozen=True, slots=True)
class MatchRow:
    """One match as the schedule and the results list show it."""

    number: int
    round: Msg
    start: When | None
    table: int | None  # the board, while it is still to be played
    white: Param
    black: Param
    score: Msg | None
    status: Msg
    state: Literal["done", "playing", "next", "waiting"]
    winner: Literal["white", "black"] | None
    penalties: tuple[Msg, ...]


@dataclass(frozen=True, slots=True)
class PlacementRow:
    place: Param
    player: Param
    points: Param | None  # None: a friendly's place earns no ranking points (HGV-8)


@dataclass(frozen=True, slots=True)
class Entrant:
    player: Param
    confirmed: bool


@dataclass(frozen=True, slots=True)
class TournamentPage:
    club: Club
    club_path: str
    path: str
    name: str
    start: When
    status: Msg
    live: bool  # being played: results may come in any minute
    game: Msg
    entries: tuple[Entrant, ...]  # shown before the draw
    groups: tuple[pictures.GroupView, ...]
    bracket: pictures.BracketView | None
    schedule: tuple[MatchRow, ...]
    results: tuple[MatchRow, ...]
    placements: tuple[PlacementRow, ...]
    placements_title: Msg
    data: dict[str, Any]


async def _names(uow: SqlUnitOfWork, club: Club) -> dict[PlayerId, str]:
    return {p.id: p.name for p in await uow.players.all(club.id)}


async def club_page(
    uow: SqlUnitOfWork, club: Club, token: str, base: str, now: datetime
) -> ClubPage:
    """Return the club page: its tournaments (live, next, past) and season rankings. One
    whose day passed undrawn (forgotten) is no next night: it is listed among the past."""
    listed = await uow.tournaments.list(club.id)
    states = [await uow.tournaments.get(t.id) for t in listed]
    names = await _names(uow, club)
    tables = await season_rankings(uow, club, states, names)
    overdue = {state.id for state in states if calendar.overdue(state, now, club.timezone)}
    links = tuple(
        TournamentLink(
            name=state.name,
            start=state.start,
            status=views.tournament_status(state, state.id in overdue),
            kind="past" if state.id in overdue else _KIND_OF.get(state.status, "past"),
            path=tournament_path(token, state.id),
        )
        for state in states
    )
    rankings: dict[str, list[dict[str, Any]]] = tables["rankings"]
    several = len([g for g, rows in rankings.items() if rows]) > 1
    views_ = tuple(
        pictures.ranking_view(
            msg(
                "title.ranking_season_game" if several else "title.ranking_season",
                club=Name(club.name),
                game=msg(f"game.{game}"),
            ),
            [
                (row["rank"], row["name"], float(row["points"]), row["tournaments"], True)
                for row in rows
            ],
        )
        for game, rows in sorted(rankings.items())
        if rows
    )
    zone = ZoneInfo(club.timezone)
    data = {
        "club": {"name": club.name, "timezone": club.timezone, "language": club.language},
        "ranking": tables["ranking"],
        "rankings": tables["rankings"],
        "tournaments": [
            {
                "name": link.name,
                "start": link.start.astimezone(zone).isoformat(timespec="seconds"),
                "status": state.status.value,
                "url": join(base, link.path),
            }
            for link, state in zip(links, states, strict=True)
        ],
    }
    return ClubPage(club, club_path(token), links, views_, data)


async def tournament_page(
    uow: SqlUnitOfWork, club: Club, token: str, tournament_id: int, now: datetime
) -> TournamentPage | None:
    """Return a tournament's page, None when the club has no such tournament."""
    if tournament_id not in {t.id for t in await uow.tournaments.list(club.id)}:
        return None
    state = await uow.tournaments.get(tournament_id)
    overdue = calendar.overdue(state, now, club.timezone)
    return tournament_view(state, club, await _names(uow, club), token, overdue=overdue)


def tournament_view(
    state: TournamentState,
    club: Club,
    names: Mapping[PlayerId, str],
    token: str,
    *,
    overdue: bool = False,
) -> TournamentPage:
    """Return a tournament's page from its state (what the page shows, nothing loaded);
    `overdue`: its day passed undrawn, and it says so."""
    ordered = sorted(state.matches.values(), key=lambda m: m.number)
    entries = (
        tuple(
            Entrant(views.name(names, e.player), e.confirmed)
            for e in sorted(state.entries.values(), key=lambda e: names.get(e.player, ""))
            if e.status.value == "active"
        )
        if not state.groups
        else ()
    )
    placed = views.placements_table(state, names)  # the chat's table, row for row
    return TournamentPage(
        club=club,
        club_path=club_path(token),
        path=tournament_path(token, state.id),
        name=state.name,
        start=When(state.start, "datetime"),
        status=views.tournament_status(state, overdue),
        live=_KIND_OF.get(state.status) == "live",
        game=msg(f"game.{state.preset.game}"),
        entries=entries,
        groups=tuple(
            pictures.group_view(state, group, names)
            for group in sorted(state.groups, key=lambda g: _natural(g.name))
        ),
        bracket=pictures.bracket_view(state, names),
        schedule=tuple(_row(state, m, names) for m in ordered if not m.is_final),
        results=tuple(_row(state, m, names) for m in ordered if m.is_final),
        # The chat's placements table, row for row: shared places as a range ("5–8").
        placements=tuple(
            PlacementRow(place, player, points[0] if points else None)
            for place, player, *points in placed.rows
        ),
        placements_title=placed.title,
        data=tournament_object(state, dict(names), ZoneInfo(club.timezone)),
    )


def _row(state: TournamentState, match: Match, names: Mapping[PlayerId, str]) -> MatchRow:
    penalties = tuple(
        msg(
            "page.penalty",
            name=views.name(names, p.against),
            points=p.points,
            at=When(p.at),
        )
        for p in sorted(state.penalties.values(), key=lambda p: (p.at, p.key))
        if p.match == match.number and not p.cancelled
    )
    shown = match.status is not MatchStatus.SCHEDULED or match.is_final
    if match.is_final:
        row_state: Literal["done", "playing", "next", "waiting"] = "done"
    elif match.status in (MatchStatus.PLAYING, MatchStatus.PENDING, MatchStatus.DISPUTED):
        row_state = "playing"
    elif match.is_ready:
        row_state = "next"
    else:
        row_state = "waiting"
    winner: Literal["white", "black"] | None = None
    if match.winner is not None and match.winner == match.white:
        winner = "white"
    elif match.winner is not None and match.winner == match.black:
        winner = "black"
    return MatchRow(
        number=match.number,
        round=views.round_label(match),
        start=When(match.start) if match.start else None,
        table=views.table_number(state, match)
        if match.start is not None and not match.is_final and match.is_ready
        else None,
        white=_side(state, match, match.white, match.white_from, names),
        black=_side(state, match, match.black, match.black_from, names),
        score=views.shown_score(match) if shown and match.status is not MatchStatus.VOID else None,
        status=msg(f"status.{match.status.value}"),
        state=row_state,
        winner=winner,
        penalties=penalties,
    )


def _side(
    state: TournamentState,
    match: Match,
    player: PlayerId | None,
    source: str | None,
    names: Mapping[PlayerId, str],
) -> Param:
    """Return a player's name, or where the player will come from ("winner of 13")."""
    if player is None and source is not None:
        feeder = next((m for m in state.matches.values() if m.key == source), None)
        if feeder is not None:
            key = "word.loser_of" if match.stage is Stage.THIRD_PLACE else "word.winner_of"
            return msg(key, match=feeder.number)
    return views.name(names, player)


def _natural(text: str) -> tuple[int, int | str]:
    return (0, int(text)) if text.isdigit() else (1, text)
