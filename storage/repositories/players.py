"""Players of a club and their chat accounts."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from decimal import Decimal

from sqlalchemy import Integer, bindparam, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from storage import tables as t
from storage.repositories.base import NotFound, SqlRepository, insert_ignoring
from storage.repositories.codec import fold_name
from storage.repositories.roster import RosterView, player_of
from storage.transaction import Transaction
from tournament.club import Player
from tournament.model import Refused

NAMES_LOCK = 0x6E616D65  # 'name': the advisory-lock space of a club's player names


# Built once: a command asks them again and again.
# A statement, not text: it goes straight to the driver (storage/compiled).
_NAMES_LOCK = select(
    func.pg_advisory_xact_lock(
        bindparam("space", type_=Integer()), bindparam("club", type_=Integer())
    )
)
_BY_ID = select(t.players).where(t.players.c.id == bindparam("player_id"))
_MANY = select(t.players).where(t.players.c.id.in_(bindparam("ids", expanding=True)))
_NAMES = select(t.players.c.id, t.players.c.name).where(
    t.players.c.id.in_(bindparam("ids", expanding=True))
)
_BY_ACCOUNT = (
    select(t.players)
    .join(t.accounts, t.accounts.c.player_id == t.players.c.id)
    .where(
        t.accounts.c.club_id == bindparam("club_id"),
        t.accounts.c.platform == bindparam("platform"),
        t.accounts.c.external_id == bindparam("external_id"),
    )
)


class SqlPlayerRepository(SqlRepository):
    """The people of each club; names are looked up folded (case, spacing). Look-ups by
    id and account are answered from the club's cached roster when this unit of work
    may trust it (storage/repositories/roster.py)."""

    def __init__(self, transaction: Transaction, roster: RosterView | None = None) -> None:
        super().__init__(transaction)
        self._roster = roster or RosterView(transaction, None)
        self._added: dict[int, int] = {}  # player id -> club id, of players added here
        self._names_held: set[int] = set()  # clubs whose names this unit of work locked

    async def get(self, player_id: int) -> Player:
        row = (await (await self._conn()).execute(_BY_ID, {"player_id": player_id})).first()
        if row is None:
            raise NotFound(f"player {player_id}")
        return player_of(row)

    async def many(self, player_ids: Sequence[int]) -> dict[int, Player]:
        if not player_ids:
            return {}
        roster = await self._roster.roster(self._roster.single_club)
        if roster is not None and all(p in roster.players for p in player_ids):
            return {p: roster.player(p) for p in set(player_ids)}
        rows = await (await self._conn()).execute(_MANY, {"ids": sorted(set(player_ids))})
        return {r.id: player_of(r) for r in rows}

    async def names(self, player_ids: Sequence[int]) -> dict[int, str]:
        if not player_ids:
            return {}
        roster = await self._roster.roster(self._roster.single_club)
        if roster is not None and all(p in roster.players for p in player_ids):
            known = roster.players
            return {p: known[p].name for p in player_ids}
        rows = await (await self._conn()).execute(_NAMES, {"ids": sorted(set(player_ids))})
        return {r.id: r.name for r in rows}

    async def by_account(self, club_id: int, platform: str, external_id: str) -> Player | None:
        roster = await self._roster.roster(club_id)
        if roster is not None:
            found = roster.by_account.get((platform, external_id))
            return None if found is None else roster.player(found)
        asked = {"club_id": club_id, "platform": platform, "external_id": external_id}
        row = (await (await self._conn()).execute(_BY_ACCOUNT, asked)).first()
        return None if row is None else player_of(row)

    async def by_name(self, club_id: int, name: str) -> list[Player]:
        """Return the club's players whose name matches, ignoring case and spacing."""
        c = t.players.c
        query = (
            select(t.players)
            .where(c.club_id == club_id, c.name_key == fold_name(name))
            .order_by(c.id)
        )
        return [player_of(r) for r in await (await self._conn()).execute(query)]

    async def all(self, club_id: int) -> list[Player]:
        """Return the club's players by id: from its cached roster (a name typed in a
        club of 300 read them all), unless its names are locked (`lock_names`): what the
        lock guards is read under it."""
        if club_id not in self._names_held:
            roster = await self._roster.roster(club_id)
            if roster is not None:
                return [roster.player(p) for p in sorted(roster.players)]
        c = t.players.c
        query = select(t.players).where(c.club_id == club_id).order_by(c.id)
        return [player_of(r) for r in await (await self._conn()).execute(query)]

    async def lock_names(self, club_id: int) -> None:
        """Hold the club's names until the transaction ends (one lock per club).

        PostgreSQL: a transaction-level advisory lock, keyed by the club. SQLite: writes
        begin IMMEDIATE, one transaction at a time, so the names are held already.
        """
        self._names_held.add(club_id)
        if self._dialect == "postgresql":
            await (await self._conn()).execute(_NAMES_LOCK, {"space": NAMES_LOCK, "club": club_id})

    async def add(
        self,
        club_id: int,
        name: str,
        now: datetime,
        *,
        born: date | None = None,
        member: bool = True,
    ) -> Player:
        """Add a player; a director's entry or an import is a member, /register is not yet."""
        values = {
            "club_id": club_id,
            "name": name,
            "name_key": fold_name(name),
            "born": born,
            "member": member,
            "novice": False,
            "created_at": now,
        }
        query = insert(t.players).values(values).returning(t.players.c.id)
        try:
            player_id = (await (await self._conn()).execute(query)).scalar_one()
        except IntegrityError:
            # The unique folded name: someone took it a moment ago (the unit of work
            # rolls back on the refusal, as on any other).
            raise Refused("name_taken", name=name) from None
        await self._roster.changed(club_id)
        self._added[player_id] = club_id
        return Player(
            id=player_id, club_id=club_id, name=name, created_at=now, born=born, member=member
        )

    async def save(self, player: Player) -> None:
        query = (
            update(t.players)
            .where(t.players.c.id == player.id)
            .values(
                name=player.name,
                name_key=fold_name(player.name),
                born=player.born,
                member=player.member,
                novice=player.novice,
                language=player.language,
            )
        )
        try:
            changed = (await (await self._conn()).execute(query)).rowcount
        except IntegrityError:
            raise Refused("name_taken", name=player.name) from None
        if changed != 1:
            raise NotFound(f"player {player.id}")
        await self._roster.changed(player.club_id)

    async def add_account(self, player_id: int, platform: str, external_id: str) -> None:
        """Link a chat account to a player; linking it again is a no-op, but an account
        belongs to one player of a club (ValueError when it is another's)."""
        conn = await self._conn()
        club_id = self._added.get(player_id)  # a player added now needs no look-up
        if club_id is None:
            club_query = select(t.players.c.club_id).where(t.players.c.id == player_id)
            club_id = (await conn.execute(club_query)).scalar_one_or_none()
        if club_id is None:
            raise NotFound(f"player {player_id}")
        values = {
            "player_id": player_id,
            "club_id": club_id,
            "platform": platform,
            "external_id": external_id,
        }
        keys = ("club_id", "platform", "external_id")
        query = insert_ignoring(self._dialect, t.accounts, keys).values(values)
        if (await conn.execute(query)).rowcount == 1:
            await self._roster.changed(club_id)
            return
        a = t.accounts.c
        owner_query = select(a.player_id).where(
            a.club_id == club_id, a.platform == platform, a.external_id == external_id
        )
        owner = (await conn.execute(owner_query)).scalar_one()
        if owner != player_id:
            raise ValueError(f"{platform} account {external_id} belongs to player {owner}")

    async def accounts_of(self, player_ids: Sequence[int]) -> dict[int, list[tuple[str, str]]]:
        """Return the chat accounts of several players at once."""
        found: dict[int, list[tuple[str, str]]] = {p: [] for p in player_ids}
        if not player_ids:
            return found
        roster = await self._roster.roster(self._roster.single_club)
        if roster is not None and all(p in roster.players for p in player_ids):
            return {p: list(roster.accounts.get(p, [])) for p in player_ids}
        c = t.accounts.c
        query = (
            select(c.player_id, c.platform, c.external_id)
            .where(c.player_id.in_(sorted(set(player_ids))))
            .order_by(c.id)
        )
        for row in await (await self._conn()).execute(query):
            found[row.player_id].append((row.platform, row.external_id))
        return found

    async def accounts(self, player_id: int) -> list[tuple[str, str]]:
        """Return the player's chat accounts, oldest first (from the cached roster when
        trusted: a /report asks whether the opponent has one)."""
        return (await self.accounts_of([player_id]))[player_id]

    async def merge(self, old: int, new: int) -> None:
        """Move what the club keeps of player `old` to `new` and delete `old`: chat
        accounts, sanctions and imported ranking points (added to `new`'s, per game).

        Tournament facts (entries, results, placements) are moved first by the caller,
        in each tournament's state (`tournament.roster.merge_player`)."""
        conn = await self._conn()
        club = select(t.players.c.club_id).where(t.players.c.id == new)
        club_id = (await conn.execute(club)).scalar_one_or_none()
        if club_id is not None:
            await self._roster.changed(int(club_id))
        await conn.execute(
            update(t.accounts).where(t.accounts.c.player_id == old).values(player_id=new)
        )
        await conn.execute(
            update(t.sanctions).where(t.sanctions.c.player_id == old).values(player_id=new)
        )
        r = t.ranking_imports.c
        rows = (
            await conn.execute(select(t.ranking_imports).where(r.player_id.in_((old, new))))
        ).all()
        mine = {row.game: row for row in rows if row.player_id == new}
        for row in rows:
            if row.player_id != old:
                continue
            kept = mine.get(row.game)
            if kept is None:
                await conn.execute(
                    update(t.ranking_imports).where(r.id == row.id).values(player_id=new)
                )
                continue
            total = Decimal(kept.points) + Decimal(row.points)
            await conn.execute(
                update(t.ranking_imports)
                .where(r.id == kept.id)
                .values(points=str(total), position=min(kept.position, row.position))
            )
            await conn.execute(delete(t.ranking_imports).where(r.id == row.id))
        await conn.execute(delete(t.players).where(t.players.c.id == old))
