"""A club's roster (players, their chat accounts, its stored directors, the chats it
announces in) cached per process against the club's `roster_version` (issue 17: five of
a /report's twelve statements asked for it again).

Every write to players, accounts, directors or chats goes through the repositories, which bump
`clubs.roster_version` in the same transaction. A unit of work reads the club's row (and
so its version) before it asks for the roster, so a roster loaded then is at least as new
as the version it is filed under; a unit of work that wrote to a roster reads that club
from the database until it ends (its writes are not committed, nor cached).

SQLite reads a roster in four statements, so only a version met twice is loaded;
PostgreSQL reads it in one (`_whole`: one round trip), so at once.
"""

from __future__ import annotations

import functools
from collections import OrderedDict
from dataclasses import dataclass, fields
from datetime import UTC, date, datetime
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from sqlalchemy import (
    Integer,
    Row,
    Select,
    Table,
    bindparam,
    func,
    literal_column,
    select,
    type_coerce,
    update,
)

from storage import tables as t
from tournament.club import Player

if TYPE_CHECKING:
    from storage.transaction import Transaction

MAX_CLUBS = 1024  # clubs kept; the least recently used goes first


def player_of(row: Row[Any]) -> Player:
    """Map a players row."""
    return Player(
        id=row.id,
        club_id=row.club_id,
        name=row.name,
        created_at=row.created_at,
        born=row.born,
        member=row.member,
        novice=row.novice,
        language=row.language,
    )


# A player's fields in order: a copy built from them is 4x cheaper than dataclasses.replace,
# and a command copies every player of its tournament for their names (issue 17).
_PLAYER_FIELDS = attrgetter(*(f.name for f in fields(Player) if f.init))


_PLAYERS = select(t.players).where(t.players.c.club_id == bindparam("club_id"))
_ACCOUNTS = (
    select(t.accounts.c.player_id, t.accounts.c.platform, t.accounts.c.external_id)
    .where(t.accounts.c.club_id == bindparam("club_id"))
    .order_by(t.accounts.c.id)
)
_DIRECTORS = select(t.directors.c.platform, t.directors.c.external_id).where(
    t.directors.c.club_id == bindparam("club_id")
)
CHATS = (
    select(t.chats.c.platform, t.chats.c.chat)
    .where(t.chats.c.club_id == bindparam("club_id"), t.chats.c.status == "active")
    .order_by(t.chats.c.id)
)
_BUMP = (
    update(t.clubs)
    .where(t.clubs.c.id == bindparam("b_club"))
    .values(roster_version=t.clubs.c.roster_version + 1)
)


@dataclass(frozen=True, slots=True)
class Roster:
    """One club's people at one version (the Player objects are copied on the way out)."""

    version: int
    players: dict[int, Player]
    by_account: dict[tuple[str, str], int]  # (platform, external id) -> player id
    accounts: dict[int, list[tuple[str, str]]]  # player id -> its accounts, oldest first
    directors: frozenset[tuple[str, str]]
    chats: tuple[tuple[str, str], ...]  # (platform, chat) of its confirmed links, oldest first

    def player(self, player_id: int) -> Player:
        """Return a copy of a player of this roster (a caller may change its copy)."""
        return Player(*_PLAYER_FIELDS(self.players[player_id]))


class RosterCache:
    """Rosters by club, each valid at its version; shared by one factory's units."""

    def __init__(self, size: int = MAX_CLUBS) -> None:
        self._size = size
        self._rosters: OrderedDict[int, Roster] = OrderedDict()
        self._noted: OrderedDict[int, int] = OrderedDict()  # club -> version seen once

    def seen_before(self, club_id: int, version: int) -> bool:
        """Return whether a unit of work met this version already; note it if not.

        A roster is loaded whole only for a version met twice: while every command
        changes it (people registering) each would load it for nothing."""
        if self._noted.get(club_id) == version:
            return True
        self._noted[club_id] = version
        self._noted.move_to_end(club_id)
        while len(self._noted) > self._size:
            self._noted.popitem(last=False)
        return False

    def get(self, club_id: int, version: int) -> Roster | None:
        roster = self._rosters.get(club_id)
        if roster is None or roster.version != version:
            return None
        self._rosters.move_to_end(club_id)
        return roster

    def put(self, club_id: int, roster: Roster) -> None:
        self._rosters[club_id] = roster
        self._rosters.move_to_end(club_id)
        while len(self._rosters) > self._size:
            self._rosters.popitem(last=False)


class RosterView:
    """What one unit of work knows of the clubs' rosters: the versions it read, the
    clubs it changed, and the shared cache."""

    def __init__(self, transaction: Transaction, cache: RosterCache | None) -> None:
        self._transaction = transaction
        self._cache = cache
        self._versions: dict[int, int] = {}
        self._changed: set[int] = set()
        self._declined: set[int] = set()  # clubs this unit of work reads from the database

    @property
    def _whole(self) -> bool:
        """Whether a roster is read in one statement (PostgreSQL: one round trip, fewer
        than the look-ups it saves even when the version is new), so loaded at once."""
        return bool(self._transaction.bind.dialect.name == "postgresql")

    def saw(self, club_id: int, version: int) -> None:
        """Note the version of a club row this unit of work read."""
        self._versions.setdefault(club_id, version)

    async def changed(self, club_id: int) -> None:
        """Bump the club's roster version: a player, account, director or chat changed
        (once a transaction: its changes are committed together)."""
        if club_id in self._changed:
            return
        self._changed.add(club_id)
        conn = await self._transaction.connection()
        await conn.execute(_BUMP, {"b_club": club_id})

    def forget(self) -> None:
        """After a rollback: read from the database again (nothing of it was cached), and
        bump again on the next change (the bumps were undone too)."""
        self._versions.clear()
        self._changed.clear()

    @property
    def single_club(self) -> int | None:
        """Return the one club this unit of work read, if it read exactly one."""
        return next(iter(self._versions)) if len(self._versions) == 1 else None

    async def roster(self, club_id: int | None) -> Roster | None:
        """Return the club's roster if this unit of work may trust a cached one (it read
        the club's version and changed nothing of it); load it once per version, from
        the second unit of work that meets that version."""
        if club_id is None or self._cache is None:
            return None
        version = self._versions.get(club_id)
        if version is None or club_id in self._changed or club_id in self._declined:
            return None
        found = self._cache.get(club_id, version)
        if found is None:
            if not self._cache.seen_before(club_id, version) and not self._whole:
                self._declined.add(club_id)
                return None
            found = await self._load(club_id, version)
            self._cache.put(club_id, found)
        return found

    async def _load(self, club_id: int, version: int) -> Roster:
        conn = await self._transaction.connection()
        asked = {"club_id": club_id}
        if self._whole:
            return _roster_of(club_id, version, (await conn.execute(_whole(), asked)).one())
        players = {int(r.id): player_of(r) for r in await conn.execute(_PLAYERS, asked)}
        by_account: dict[tuple[str, str], int] = {}
        accounts: dict[int, list[tuple[str, str]]] = {}
        for r in await conn.execute(_ACCOUNTS, asked):
            by_account[(r.platform, r.external_id)] = int(r.player_id)
            accounts.setdefault(int(r.player_id), []).append((r.platform, r.external_id))
        rows = await conn.execute(_DIRECTORS, asked)
        directors = frozenset((r.platform, r.external_id) for r in rows)
        chats = tuple((r.platform, r.chat) for r in await conn.execute(CHATS, asked))
        return Roster(version, players, by_account, accounts, directors, chats)


@functools.cache
def _whole() -> Select[Any]:
    """Return PostgreSQL's read of a whole roster in one row: the club's players,
    accounts, directors and chats, each a JSON array of arrays, in the order `_load` reads
    them (built on first use: SQLite never imports the PostgreSQL dialect)."""
    from sqlalchemy.dialects.postgresql import JSON, aggregate_order_by

    club = bindparam("club_id", type_=Integer())

    def rows(table: Table, *columns: Any) -> Any:
        """Return the club's rows of `table` (ordered by id) as a JSON array of arrays."""
        order = table.c.id
        listed = func.json_agg(aggregate_order_by(func.json_build_array(*columns), order))
        found = select(func.coalesce(listed, literal_column("'[]'::json"))).select_from(table)
        where = [table.c.club_id == club]
        if table is t.chats:
            where.append(table.c.status == "active")  # confirmed links only, as CHATS
        return type_coerce(found.where(*where).scalar_subquery(), JSON).label(table.name)

    p, a, d, c = t.players.c, t.accounts.c, t.directors.c, t.chats.c
    return select(
        rows(t.players, p.id, p.name, p.created_at, p.born, p.member, p.novice, p.language),
        rows(t.accounts, a.player_id, a.platform, a.external_id),
        rows(t.directors, d.platform, d.external_id),
        rows(t.chats, c.platform, c.chat),
    )


def _roster_of(club_id: int, version: int, row: Row[Any]) -> Roster:
    """Return the roster `_whole` read (JSON: times as ISO text, in the session's zone)."""
    players = {
        int(pid): Player(
            id=int(pid),
            club_id=club_id,
            name=name,
            created_at=datetime.fromisoformat(created).astimezone(UTC),
            born=None if born is None else date.fromisoformat(born),
            member=bool(member),
            novice=bool(novice),
            language=language,
        )
        for pid, name, created, born, member, novice, language in row.players
    }
    by_account: dict[tuple[str, str], int] = {}
    accounts: dict[int, list[tuple[str, str]]] = {}
    for player_id, platform, external_id in row.accounts:
        by_account[(platform, external_id)] = int(player_id)
        accounts.setdefault(int(player_id), []).append((platform, external_id))
    directors = frozenset((platform, external_id) for platform, external_id in row.directors)
    chats = tuple((platform, chat) for platform, chat in row.chats)
    return Roster(version, players, by_account, accounts, directors, chats)
