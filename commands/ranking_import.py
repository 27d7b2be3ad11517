"""The ranking import use case (`clubtd ranking import FILE.csv`): load a club's ranking
from before the bot.

The file is `name,points` as a spreadsheet saves it: UTF-8 (with or without the BOM
Excel writes), UTF-16 or Windows-1252 ("CSV" from an older Excel); separated by commas
or by semicolons (what European spreadsheets write), points with a decimal point or a
decimal comma; a first line whose points are not a number is a header; a position
column before the name (`Pos;Jugador;Puntos`) is read and ignored. The rows may come in
any order: they are sorted by points, and equal points keep the file's order. Names match
the club's players by display name (ignoring case and spacing); unknown names become
members without a chat account, who claim their name the first time they /register.

Imported points are the season so far (HGV-8): the season ranking of that game shows
them as carried over, and they seed the next draw. A second import of the same game
replaces the first only when asked to (`--replace`).
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal, InvalidOperation

from commands import names
from commands.export import ExportError, find_club
from commands.ports import UnitOfWork
from tournament import folding
from tournament.club import Club
from tournament.model import Refused
from tournament.ranking import default_game

GAMES = ("backgammon", "draughts")


class ImportFileError(Exception):
    """The file cannot be imported; the message names each bad line and what to fix."""


class AlreadyImported(Exception):
    """The club already has an imported ranking for this game; --replace replaces it."""


@dataclass(frozen=True, slots=True)
class ImportRow:
    line: int
    name: str
    points: Decimal


@dataclass(frozen=True, slots=True)
class Imported:
    rows: tuple[tuple[str, Decimal], ...]  # (player name, points), best first
    created: tuple[str, ...]  # players added without a chat account
    game: str
    replaced: int  # how many rows an earlier import had
    # (as the file spells it, the member's name): "Jose Luis" is José Luis of the club.
    matched: tuple[tuple[str, str], ...] = ()


# A position column: "1", "2.", "3º", "4)".
_POSITION = re.compile(r"^\d{1,5}\s*[.º°)]?$")


def decode(data: bytes) -> str:
    """Return a CSV file's text, whichever encoding a spreadsheet saved it in.

    UTF-8 (a BOM is dropped), UTF-16 with its BOM, else Windows-1252, the encoding of
    "CSV" from Excel on Windows in Spain or Venezuela, or Windows-1250, its Polish and
    Romanian twin (whichever reads as names); refuse, saying how to save it, what is
    none of them.
    """
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            pass
    else:
        try:
            return data.decode("utf-8-sig")
        except UnicodeDecodeError:
            pass
        decoded = {}
        for encoding in ("cp1252", "cp1250"):
            try:
                decoded[encoding] = data.decode(encoding)
            except UnicodeDecodeError:
                continue
        if decoded:
            # Western or Central European Excel: the one whose names read as letters.
            return min(decoded.items(), key=lambda item: _misread(item[1]))[1]
    raise ImportFileError(
        "the file is not text in UTF-8 or Windows-1252: save it from the spreadsheet as "
        '"CSV UTF-8" and import that file'
    )


# What a Central European (Windows-1250) name looks like read as Windows-1252: "Łucja"
# as "£ucja", "Ştefan" as "ªtefan", "Ţurcanu" as "Þurcanu", "Wiślak" as "Wiœlak".
_NOT_IN_NAMES = frozenset("ºªþÞðÐœŒŸ")


def _misread(text: str) -> int:
    """Count the characters a name would not have: symbols and digits beyond ASCII."""
    return sum(
        1
        for char in text
        if not char.isascii()
        and (char in _NOT_IN_NAMES or not unicodedata.category(char).startswith("L"))
    )


def separator(text: str) -> str:
    """Return the file's separator: `;` when its first data line has one, else `,`."""
    for line in text.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            return ";" if ";" in line else ","
    return ","


def _number(raw: str) -> Decimal | None:
    text = raw.replace(" ", "").replace("\u00a0", "")
    if text.count(",") == 1 and "." not in text:
        text = text.replace(",", ".")  # a decimal comma: 6,40
    try:
        value = Decimal(text)
    except InvalidOperation:
        return None
    return value if value.is_finite() else None


def read_ranking(text: str) -> list[ImportRow]:
    """Read and check the CSV text; raise ImportFileError naming every bad line."""
    rows: list[ImportRow] = []
    problems: list[str] = []
    seen: dict[str, int] = {}
    delimiter = separator(text.lstrip("\ufeff"))
    reader = csv.reader(io.StringIO(text.lstrip("\ufeff")), delimiter=delimiter)
    first = True
    for cells in reader:
        line = reader.line_num
        cells = [c.strip() for c in cells]
        while cells and not cells[-1]:
            cells.pop()  # spreadsheets add empty columns at the end
        if not any(cells) or cells[0].startswith("#"):
            continue
        header, first = first and len(cells) in (2, 3) and _number(cells[-1]) is None, False
        if header:
            continue  # "name,points", "nombre;puntos", "Pos;Jugador;Puntos", ...
        if len(cells) == 3 and _POSITION.match(cells[0]) and _number(cells[2]) is not None:
            cells = cells[1:]  # a position column: the order is the points'
        if len(cells) != 2:
            hint = (
                " (a decimal comma needs ; between the columns, or the number in quotes)"
                if delimiter == "," and len(cells) == 3
                else ""
            )
            problems.append(
                f"line {line}: expected two columns, name{delimiter}points "
                f"(found {len(cells)}){hint}"
            )
            continue
        name, raw = " ".join(cells[0].split()), cells[1]
        if not name:
            problems.append(f"line {line}: the name is empty")
            continue
        points = _number(raw)
        if points is None or points < 0:
            problems.append(f"line {line}: {raw!r} is not a number of points")
            continue
        key = folding.key(name)
        if key in seen:
            problems.append(f"line {line}: {name!r} is listed twice (also line {seen[key]})")
            continue
        seen[key] = line
        rows.append(ImportRow(line, name, points))
    if problems:
        raise ImportFileError("\n".join([*problems, "nothing was imported; fix the file"]))
    if not rows:
        raise ImportFileError("the file lists nobody: write one name,points line per player")
    # Best first; sorted() is stable, so equal points keep the file's order.
    return sorted(rows, key=lambda row: -row.points)


async def import_ranking(
    uow: UnitOfWork,
    club: Club,
    rows: list[ImportRow],
    now: datetime,
    *,
    game: str = "backgammon",
    replace: bool = False,
) -> Imported:
    """Store `rows` as the club's imported ranking of `game`; commit.

    Refuse (AlreadyImported) when that game has one already, unless `replace`.
    """
    earlier = await uow.rankings.imported(club.id, game)
    if earlier and not replace:
        raise AlreadyImported(
            f"{club.name} already has an imported {game} ranking ({len(earlier)} players); "
            "nothing was changed. To replace it, run the same command with --replace"
        )
    stored: list[tuple[int, Decimal]] = []
    shown: list[tuple[str, Decimal]] = []  # by the names the club knows them by
    created: list[str] = []
    problems: list[str] = []
    # Where each name a new player could be confused with comes from: a player of the
    # club (None), or a line of this file. The chat refuses a new player beside a
    # look-alike ("jose nunez" beside "José Núñez"); so does the import.
    members = await uow.players.all(club.id)
    known: dict[str, int | None] = {p.name: None for p in members}
    matched: list[tuple[str, str]] = []
    for row in rows:
        found = await uow.players.by_name(club.id, row.name)
        if not found:
            # A spreadsheet without accents ("Jose Luis") names the member "José Luis",
            # as /addplayer matches them: the same letters, not a look-alike.
            typed = folding.loose(row.name)
            found = [p for p in members if folding.loose(p.name) == typed]
            if len(found) == 1:
                matched.append((row.name, found[0].name))
        if len(found) > 1:
            problems.append(
                f"line {row.line}: {len(found)} players of {club.name} are called {row.name!r}"
            )
            continue
        if found:
            player = found[0]
        else:
            try:
                name = names.clean(row.name)  # a new name: one line, 64 characters at most
            except Refused as refusal:
                raise ImportFileError(
                    f"line {row.line}: {row.name[:80]!r} cannot be a name ({refusal.code})"
                ) from None
            twin = names.look_alike(name, known)
            if twin is not None:
                where = f"line {known[twin]}" if known[twin] is not None else club.name
                problems.append(
                    f"line {row.line}: {name!r} reads like {twin!r} ({where}): if they are"
                    f" one player, write it as {twin!r}"
                )
                continue
            known[name] = row.line
            player = await uow.players.add(club.id, name, now, member=True)
            created.append(player.name)
        stored.append((player.id, row.points))
        shown.append((player.name, row.points))
    if problems:
        await uow.rollback()
        raise ImportFileError("\n".join([*problems, "nothing was imported; fix the file"]))
    await uow.rankings.replace_imported(club.id, stored, game, now)
    await uow.commit()
    return Imported(
        tuple(shown),
        tuple(created),
        game,
        len(earlier),
        tuple(matched),
    )


async def club_game(uow: UnitOfWork, club: Club) -> str:
    """Return the club's only game (from its tournaments and imports), else backgammon."""
    games = {record.game for record in await uow.tournaments.records(club.id)}
    games |= set(await uow.rankings.imported_games(club.id))
    return default_game(games)


@dataclass(frozen=True, slots=True)
class ClubDefaults:
    """What a database's first club is called and set to, from the settings."""

    name: str
    timezone: str
    language: str


async def club_for_import(
    uow: UnitOfWork,
    name: str | None,
    now: datetime,
    *,
    console: tuple[str, str],
    first: ClubDefaults,
) -> tuple[Club, bool]:
    """Return the club to import into (named, the console's, or the only one) and
    whether it was created: a database without clubs gets its first club, the console's
    (INTERFACE §2). A name that fits no club of a database that has some is refused.

    Created in the caller's unit of work, committed with the import: a file refused
    leaves no club behind."""
    try:
        return await find_club(uow, name, console=console), False
    except ExportError:
        if await uow.clubs.all():
            raise
    club = await uow.clubs.add(
        (name or first.name).strip() or first.name, first.timezone, first.language, now
    )
    await uow.clubs.link_chat(club.id, *console)
    return club, True
