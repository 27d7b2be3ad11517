"""`clubtd ranking import FILE.csv`: load a club's ranking from before the bot.

The file is `name,points`, best first (equal points keep the file's order); a first
line `name,points` is a header. Names match the club's players by display name
(ignoring case and spacing); unknown names become players without a chat account, who
claim their name the first time they /register.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal, InvalidOperation

from commands import names
from storage.unit_of_work import SqlUnitOfWork
from tournament.club import Club
from tournament.model import Refused


class ImportFileError(Exception):
    """The file cannot be imported; the message names the line and what to fix."""


@dataclass(frozen=True, slots=True)
class ImportRow:
    line: int
    name: str
    points: Decimal


@dataclass(frozen=True, slots=True)
class Imported:
    rows: tuple[tuple[str, Decimal], ...]  # (player name, points), best first
    created: tuple[str, ...]  # players added without a chat account


def read_ranking(text: str) -> list[ImportRow]:
    """Read and check the CSV text; raise ImportFileError naming the bad line."""
    rows: list[ImportRow] = []
    seen: dict[str, int] = {}
    reader = csv.reader(io.StringIO(text.lstrip("\ufeff")))
    for cells in reader:
        line = reader.line_num
        cells = [c.strip() for c in cells]
        if not any(cells) or cells[0].startswith("#"):
            continue
        if not rows and [c.lower() for c in cells] == ["name", "points"]:
            continue
        if len(cells) != 2:
            raise ImportFileError(
                f"line {line}: expected two columns, name,points (found {len(cells)})"
            )
        name, raw = " ".join(cells[0].split()), cells[1]
        if not name:
            raise ImportFileError(f"line {line}: the name is empty")
        try:
            points = Decimal(raw.replace(",", "."))
        except InvalidOperation:
            raise ImportFileError(f"line {line}: {raw!r} is not a number of points") from None
        if not points.is_finite() or points < 0:
            raise ImportFileError(f"line {line}: {raw!r} is not a number of points")
        key = " ".join(name.casefold().split())
        if key in seen:
            raise ImportFileError(f"line {line}: {name!r} is listed twice (also line {seen[key]})")
        if rows and points > rows[-1].points:
            raise ImportFileError(
                f"line {line}: {name} has {raw} points, more than {rows[-1].name} above "
                f"({rows[-1].points}); list the best first"
            )
        seen[key] = line
        rows.append(ImportRow(line, name, points))
    if not rows:
        raise ImportFileError("the file lists nobody: write one name,points line per player")
    return rows


async def import_ranking(
    uow: SqlUnitOfWork, club: Club, rows: list[ImportRow], now: datetime
) -> Imported:
    """Replace the club's imported ranking with `rows`; commit."""
    stored: list[tuple[int, Decimal]] = []
    created: list[str] = []
    for row in rows:
        found = await uow.players.by_name(club.id, row.name)
        if len(found) > 1:
            raise ImportFileError(
                f"line {row.line}: {len(found)} players of {club.name} are called {row.name!r}"
            )
        if found:
            player = found[0]
        else:
            try:
                name = names.clean(row.name)  # a new name: one line, 64 characters at most
            except Refused as refusal:
                raise ImportFileError(
                    f"line {row.line}: {row.name[:80]!r} cannot be a name ({refusal.code})"
                ) from None
            player = await uow.players.add(club.id, name, now)
            created.append(player.name)
        stored.append((player.id, row.points))
    await uow.rankings.replace_imported(club.id, stored)
    await uow.commit()
    return Imported(tuple((r.name, r.points) for r in rows), tuple(created))
