"""The export use case (`clubtd export --format json`): the club's state as JSON
(INTERFACE §4), read through the unit of work like every other use case.

Lists are in a stable order: players by name, tournaments by start, entries by seed then
name, groups by name, matches by number, penalties by time. Times carry the club's UTC
offset; `score` is `[white, black]`; group standings are in final order, tiebreaks
applied.
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

from commands import tournament_names
from commands.ports import UnitOfWork
from tournament import calendar, folding, ranking
from tournament import sanctions as sanction_rules
from tournament.club import Club
from tournament.model import PlayerId
from tournament.placements import shared_ranges
from tournament.preset import GAME_PRESETS, load_preset
from tournament.sanctions import Sanction
from tournament.stages import standings_of
from tournament.state import Match, TournamentState


class ExportError(Exception):
    """The export cannot be made (no club, no such tournament); the message says why."""


async def find_club(uow: UnitOfWork, name: str | None, *, console: tuple[str, str]) -> Club:
    """Return the club called `name`, else the console's club (linked to the `console`
    platform and chat), else the only club."""
    rows = await uow.clubs.all()
    if name is not None:
        wanted = [r.id for r in rows if folding.same(r.name, name)]
        if not wanted:
            known = ", ".join(sorted(r.name for r in rows)) or "none"
            raise ExportError(f"no club called {name!r} (clubs: {known})")
        return await uow.clubs.get(wanted[0])
    found = await uow.clubs.for_chat(*console)
    if found is not None:
        return found
    if len(rows) == 1:
        return await uow.clubs.get(rows[0].id)
    if not rows:
        raise ExportError("the database has no club yet")
    names = ", ".join(sorted(r.name for r in rows))
    raise ExportError(f"the database has several clubs ({names}): choose one with --club NAME")


async def export_club(
    uow: UnitOfWork, club: Club, *, tournament: str | None = None
) -> dict[str, Any]:
    """Return the club's state as INTERFACE §4 JSON data."""
    zone = ZoneInfo(club.timezone)
    listed = await uow.tournaments.list(club.id)
    names_by_id = {t.id: t.name for t in listed}
    if tournament is not None:
        # Named as a command names it: `--tournament febrero` finds "Copa de Febrero".
        named = await tournament_names.named(uow.audit, club.id, listed, tournament)
        state = None if named is None else await uow.tournaments.get(named.id)
        if state is None:
            known = ", ".join(t.name for t in listed) or "none"
            raise ExportError(f"no tournament called {tournament!r} (tournaments: {known})")
        states = [state]
    else:
        states = [await uow.tournaments.get(t.id) for t in listed]
    players = await uow.players.all(club.id)
    names = {p.id: p.name for p in players}
    sanctions = await uow.sanctions.for_club(club.id)
    statuses = {t.id: t.status.value for t in listed}
    return {
        "club": {"name": club.name, "timezone": club.timezone, "language": club.language},
        "players": [
            {
                "name": player.name,
                "sanctions": [
                    _sanction(s, names_by_id, statuses) for s in sanctions if s.player == player.id
                ],
            }
            for player in sorted(players, key=lambda p: (p.name.casefold(), p.name, p.id))
        ],
        **await _rankings(uow, club, states, names),
        "tournaments": [_tournament(state, names, zone) for state in states],
    }


def _sanction(
    sanction: Sanction, tournaments: dict[int, str], statuses: dict[int, str]
) -> dict[str, Any]:
    # "active" is false once the suspension was served (its tournament was drawn),
    # lifted or excused; "status" says which.
    standing = sanction_rules.standing(sanction, statuses)
    return {
        "kind": sanction.kind,
        "reason": sanction.reason,
        "tournament": tournaments.get(sanction.origin) if sanction.origin else None,
        "applies_to": tournaments.get(sanction.applies_to) if sanction.applies_to else None,
        "active": standing == "active",
        "status": standing,
    }


async def _rankings(
    uow: UnitOfWork, club: Club, states: list[TournamentState], names: dict[PlayerId, str]
) -> dict[str, Any]:
    """Return `ranking`, the season table of the club's default game, and `rankings`, one
    season table per game (HGV-8), imported points included as carried over."""
    records = await uow.tournaments.records(club.id)
    games = {r.game for r in records} | set(await uow.rankings.imported_games(club.id))
    games |= {state.preset.game for state in states}
    default = ranking.default_game(games)
    tables = {
        game: await _season_ranking(uow, club, states, names, records, game)
        for game in sorted(games | {default})
    }
    return {"ranking": tables[default], "rankings": tables}


async def _season_ranking(
    uow: UnitOfWork,
    club: Club,
    states: list[TournamentState],
    names: dict[PlayerId, str],
    records: list[ranking.TournamentRecord],
    game: str,
) -> list[dict[str, Any]]:
    """Return a game's season ranking, of the year of its latest tournament (HGV-8)."""
    zone = ZoneInfo(club.timezone)
    played = [s for s in states if s.preset.game == game]
    latest = max(played, key=lambda s: (s.start, s.id)) if played else None
    year = calendar.season(latest.start, zone) if latest else None
    listed = await uow.tournaments.list(club.id)
    in_year = calendar.in_season(listed, year, zone) if year is not None else set()
    # By id: next season's "January Cup" is another tournament than this one's.
    season = [r for r in ranking.for_game(records, game) if r.tournament_id in in_year]
    carried = dict(await uow.rankings.imported(club.id, game, year=year))
    rules = latest.preset.season if latest else load_preset(GAME_PRESETS[game]).season
    rows = ranking.season_table(season, rules, carried=carried)
    return [
        {
            "rank": row.rank,
            "name": names.get(row.player, f"#{row.player}"),
            "points": _points(row.points),
            "tournaments": row.tournaments,
            "carried_over": _points(row.carried),
        }
        for row in rows
    ]


def _tournament(
    state: TournamentState, names: dict[PlayerId, str], zone: ZoneInfo
) -> dict[str, Any]:
    def name(player: PlayerId | None) -> str | None:
        return None if player is None else names.get(player, f"#{player}")

    entries = sorted(
        state.entries.values(),
        key=lambda e: (e.seed is None, e.seed or 0, names.get(e.player, "").casefold()),
    )
    ranges = shared_ranges([p.place for p in state.placements])
    return {
        "name": state.name,
        "preset": state.preset.id,
        "status": state.status.value,
        "official": state.official,
        "start": _time(state.start, zone),
        "entries": [
            {
                "name": name(e.player),
                "confirmed": e.confirmed,
                "checked_in": e.checked_in,
                "seed": e.seed,
                "status": e.status.value,
            }
            for e in entries
        ],
        "groups": [
            {
                "name": group.name,
                "players": [name(p) for p in group.players],
                "standings": [
                    {
                        "rank": row.rank,
                        "name": name(row.player),
                        "won": row.won,
                        "lost": row.lost,
                        "points_for": row.points_for,
                        "points_against": row.points_against,
                    }
                    for row in standings_of(state, group).rows
                ],
            }
            for group in sorted(state.groups, key=lambda g: _natural(g.name))
        ],
        "matches": [
            _match(state, match, name, zone)
            for match in sorted(state.matches.values(), key=lambda m: m.number)
        ],
        "placements": [_placement(p.place, name(p.player), ranges) for p in state.placements],
        "ranking_points": [
            {"name": name(p.player), "points": _points(Decimal(p.points))}
            for p in state.placements
        ],
    }


def _placement(
    place: int | None, name: str | None, ranges: dict[int, tuple[int, int]]
) -> dict[str, Any]:
    """A placement: `place` is the best place of its shared range, `places` the range
    ("5-9", or "5" alone; PLACE-SHARE)."""
    if place is None:
        return {"place": None, "name": name, "places": None}
    first, last = ranges[place]
    return {
        "place": place,
        "name": name,
        "places": str(first) if first == last else f"{first}-{last}",
    }


def _match(state: TournamentState, match: Match, name: Any, zone: ZoneInfo) -> dict[str, Any]:
    penalties = sorted(
        (p for p in state.penalties.values() if p.match == match.number and not p.cancelled),
        key=lambda p: (p.at, p.key),
    )
    return {
        "id": match.number,
        "stage": match.stage.value,
        "group": match.group,
        "round": match.round,
        "white": name(match.white),
        "black": name(match.black),
        "length": match.length,
        "start": _time(match.start, zone),
        "score": [match.white_score, match.black_score],
        "status": match.status.value,
        "winner": name(match.winner),
        "penalties": [
            {"against": name(p.against), "points": p.points, "at": _time(p.at, zone)}
            for p in penalties
        ],
    }


def _time(moment: datetime | None, zone: ZoneInfo) -> str | None:
    return None if moment is None else moment.astimezone(zone).isoformat(timespec="seconds")


def _points(value: Decimal) -> float:
    return float(value.quantize(Decimal("0.01")))


def _natural(text: str) -> tuple[int, int | str]:
    return (0, int(text)) if text.isdigit() else (1, text)


def tournament_object(
    state: TournamentState, names: dict[PlayerId, str], zone: ZoneInfo
) -> dict[str, Any]:
    """Return one tournament as the export writes it (INTERFACE §4): the public pages'
    JSON uses the same object."""
    return _tournament(state, names, zone)


async def season_rankings(
    uow: UnitOfWork, club: Club, states: list[TournamentState], names: dict[PlayerId, str]
) -> dict[str, Any]:
    """Return `ranking` and `rankings` as the export writes them."""
    return await _rankings(uow, club, states, names)
