"""Clubs, the chats linked to them, link codes and directors."""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any

from sqlalchemy import Row, Select, bindparam, delete, insert, select, true, update

from storage import tables as t
from storage.repositories.base import NotFound, SqlRepository, insert_ignoring, upsert
from storage.repositories.roster import CHATS as roster_chats
from storage.repositories.roster import RosterView
from storage.repositories.tournaments import LISTED_COLUMNS, SqlTournamentRepository
from storage.transaction import Transaction
from tournament.club import Club

ACTIVE = "active"
PENDING = "pending"


_FOR_CHAT = (
    select(t.clubs)
    .join(t.chats, t.chats.c.club_id == t.clubs.c.id)
    .where(
        t.chats.c.platform == bindparam("platform"),
        t.chats.c.chat == bindparam("chat"),
        t.chats.c.status == ACTIVE,
    )
)


def _for_chat_listing(*, lateral: bool, locked: bool = True) -> Select[Any]:
    """Return _FOR_CHAT joined with the club's tournaments as `tournaments.list` reads
    them (a row each, or one of NULLs), locked until commit by PostgreSQL's lateral
    FOR UPDATE: the chat's club and a writing command's locked list in one round trip.
    Not `locked`: a lock-free unit of work's, whose statements commit as they run (a row
    lock would only cost that commit a write to disk)."""
    tournaments = t.tournaments
    listed: Any
    if lateral:
        listed = (
            select(*LISTED_COLUMNS)
            .where(tournaments.c.club_id == t.clubs.c.id)
            .order_by(tournaments.c.start, tournaments.c.id)
        )
        if locked:
            listed = listed.with_for_update()
        listed = listed.lateral("listed")
        joined = t.clubs.join(t.chats, t.chats.c.club_id == t.clubs.c.id).outerjoin(listed, true())
    else:  # SQLite: the transaction holds the database's write lock already
        listed = tournaments
        joined = t.clubs.join(t.chats, t.chats.c.club_id == t.clubs.c.id).outerjoin(
            tournaments, tournaments.c.club_id == t.clubs.c.id
        )
    return (
        select(t.clubs, *(listed.c[c.name].label(f"listed_{c.name}") for c in LISTED_COLUMNS))
        .select_from(joined)
        .where(
            t.chats.c.platform == bindparam("platform"),
            t.chats.c.chat == bindparam("chat"),
            t.chats.c.status == ACTIVE,
        )
        .order_by(listed.c.start, listed.c.id)
    )


_FOR_CHAT_LISTING = _for_chat_listing(lateral=False)
_FOR_CHAT_LOCKING = _for_chat_listing(lateral=True)
_FOR_CHAT_LATERAL = _for_chat_listing(lateral=True, locked=False)
# Built once, as every statement a command runs (building one costs more than running it).
_BY_ID = select(t.clubs).where(t.clubs.c.id == bindparam("club_id"))
# A chat moving to another club leaves its old club's cached roster (roster.py) stale.
_BUMP_OWNERS = (
    update(t.clubs)
    .where(
        t.clubs.c.id.in_(
            select(t.chats.c.club_id).where(
                t.chats.c.platform == bindparam("platform"), t.chats.c.chat == bindparam("chat")
            )
        )
    )
    .values(roster_version=t.clubs.c.roster_version + 1)
)
_IS_DIRECTOR = select(t.directors.c.id).where(
    t.directors.c.club_id == bindparam("club_id"),
    t.directors.c.platform == bindparam("platform"),
    t.directors.c.external_id == bindparam("external_id"),
)


def code_hash(code: str) -> str:
    """Return what is stored of a link code: its SHA-256 (a leaked table leaks no code)."""
    return hashlib.sha256(code.encode("utf-8", "surrogateescape")).hexdigest()


def _club(row: Row[Any]) -> Club:
    return Club(
        id=row.id,
        name=row.name,
        timezone=row.timezone,
        language=row.language,
        pictures=row.pictures,
        approval=row.approval,
    )


class SqlClubRepository(SqlRepository):
    """Clubs and how chats and people reach them."""

    def __init__(
        self,
        transaction: Transaction,
        roster: RosterView | None = None,
        tournaments: SqlTournamentRepository | None = None,
    ) -> None:
        super().__init__(transaction)
        self._roster = roster or RosterView(transaction, None)
        self._tournaments = tournaments

    def _club(self, row: Row[Any]) -> Club:
        """Map a club row, noting its roster version for this unit of work."""
        self._roster.saw(row.id, row.roster_version)
        return _club(row)

    async def for_chat(self, platform: str, chat: str, *, listing: bool = False) -> Club | None:
        """Return the chat's club. With `listing` (a writing command's), its tournaments
        are read in the same statement and locked until commit (PostgreSQL), and
        `tournaments.list` of this club then serves them without a query of its own."""
        params = {"platform": platform, "chat": chat}
        conn = await self._conn()
        if not listing or self._tournaments is None:
            row = (await conn.execute(_FOR_CHAT, params)).first()
            return None if row is None else self._club(row)
        if conn.dialect.name != "postgresql":
            query = _FOR_CHAT_LISTING
        else:
            query = _FOR_CHAT_LATERAL if self._transaction.lock_free else _FOR_CHAT_LOCKING
        rows = (await conn.execute(query, params)).all()
        if not rows:
            return None
        club = self._club(rows[0])
        listed = [
            (r.listed_id, r.listed_name, r.listed_start, r.listed_status, r.listed_version)
            for r in rows
            if r.listed_id is not None
        ]
        self._tournaments.take_listing(club.id, listed, for_update=True)
        return club

    async def pending_for_chat(self, platform: str, chat: str) -> Club | None:
        """Return the club this chat asked to join and waits to be confirmed by."""
        c = t.chats.c
        query = (
            select(t.clubs)
            .join(t.chats, c.club_id == t.clubs.c.id)
            .where(c.platform == platform, c.chat == chat, c.status == PENDING)
        )
        row = (await (await self._conn()).execute(query)).first()
        return None if row is None else self._club(row)

    async def for_account(self, platform: str, external_id: str) -> list[Club]:
        """Return the clubs where this chat account is a player or a director, oldest
        first."""
        a, d = t.accounts.c, t.directors.c
        query = (
            select(t.clubs)
            .where(
                t.clubs.c.id.in_(
                    select(a.club_id).where(a.platform == platform, a.external_id == external_id)
                )
                | t.clubs.c.id.in_(
                    select(d.club_id).where(d.platform == platform, d.external_id == external_id)
                )
            )
            .order_by(t.clubs.c.created_at, t.clubs.c.id)
        )
        return [self._club(r) for r in await (await self._conn()).execute(query)]

    async def all(self) -> list[Club]:
        """Return every club of the database, oldest first."""
        query = select(t.clubs).order_by(t.clubs.c.created_at, t.clubs.c.id)
        return [self._club(r) for r in await (await self._conn()).execute(query)]

    async def get(self, club_id: int) -> Club:
        row = (await (await self._conn()).execute(_BY_ID, {"club_id": club_id})).first()
        if row is None:
            raise NotFound(f"club {club_id}")
        return self._club(row)

    async def add(self, name: str, timezone: str, language: str, now: datetime) -> Club:
        values = {"name": name, "timezone": timezone, "language": language, "created_at": now}
        query = insert(t.clubs).values(values).returning(t.clubs.c.id)
        club_id = (await (await self._conn()).execute(query)).scalar_one()
        return Club(id=club_id, name=name, timezone=timezone, language=language)

    async def save(self, club: Club) -> None:
        query = (
            update(t.clubs)
            .where(t.clubs.c.id == club.id)
            .values(
                name=club.name,
                timezone=club.timezone,
                language=club.language,
                pictures=club.pictures,
                approval=club.approval,
            )
        )
        if (await (await self._conn()).execute(query)).rowcount != 1:
            raise NotFound(f"club {club.id}")

    async def web_token(self, club_id: int) -> str | None:
        """Return the secret of the club's public pages, None while they are off."""
        query = select(t.clubs.c.web_token).where(t.clubs.c.id == club_id)
        return (await (await self._conn()).execute(query)).scalar_one_or_none()

    async def set_web_token(self, club_id: int, token: str | None) -> None:
        """Turn the club's pages on with a new secret, or off (None): old links die."""
        query = update(t.clubs).where(t.clubs.c.id == club_id).values(web_token=token)
        if (await (await self._conn()).execute(query)).rowcount != 1:
            raise NotFound(f"club {club_id}")

    async def by_web_token(self, token: str) -> Club | None:
        """Return the club whose pages answer at this secret, if they are on."""
        query = select(t.clubs).where(t.clubs.c.web_token == token)
        row = (await (await self._conn()).execute(query)).first()
        return None if row is None else self._club(row)

    async def link_chat(
        self, club_id: int, platform: str, chat: str, *, pending: bool = False
    ) -> None:
        """Link a chat to a club (`pending` until a director of the club confirms it)."""
        values = {
            "platform": platform,
            "chat": chat,
            "club_id": club_id,
            "status": PENDING if pending else ACTIVE,
        }
        query = upsert(self._dialect, t.chats, ("platform", "chat"), values)
        conn = await self._conn()
        await conn.execute(_BUMP_OWNERS, {"platform": platform, "chat": chat})
        await conn.execute(query)
        await self._roster.changed(club_id)

    async def confirm_chat(self, club_id: int, link_id: int) -> tuple[str, str] | None:
        """Activate a pending link of this club; return its (platform, chat), or None."""
        c = t.chats.c
        query = (
            update(t.chats)
            .where(c.id == link_id, c.club_id == club_id, c.status == PENDING)
            .values(status=ACTIVE)
            .returning(c.platform, c.chat)
        )
        row = (await (await self._conn()).execute(query)).first()
        if row is None:
            return None
        await self._roster.changed(club_id)
        return (row.platform, row.chat)

    async def pending_chats(self, club_id: int) -> list[tuple[int, str, str]]:
        """Return (link id, platform, chat) of the chats waiting to be confirmed."""
        c = t.chats.c
        query = (
            select(c.id, c.platform, c.chat)
            .where(c.club_id == club_id, c.status == PENDING)
            .order_by(c.id)
        )
        return [(r.id, r.platform, r.chat) for r in await (await self._conn()).execute(query)]

    async def move_chat(self, platform: str, old: str, new: str) -> int | None:
        """Follow a chat that changed its id (a Telegram group became a supergroup):
        its club link and its unsent messages move along; return the club, if any."""
        conn = await self._conn()
        c = t.chats.c
        found = (
            await conn.execute(
                select(c.club_id, c.status).where(c.platform == platform, c.chat == old)
            )
        ).first()
        if found is None:
            return None
        await conn.execute(_BUMP_OWNERS, {"platform": platform, "chat": new})
        await conn.execute(delete(t.chats).where(c.platform == platform, c.chat == new))
        await conn.execute(
            update(t.chats).where(c.platform == platform, c.chat == old).values(chat=new)
        )
        o = t.outbox.c
        await conn.execute(
            update(t.outbox)
            .where(o.platform == platform, o.chat == old, o.status == "pending")
            .values(chat=new)
        )
        await self._roster.changed(int(found.club_id))
        return int(found.club_id)

    async def chats(self, club_id: int) -> list[tuple[str, str]]:
        """Return the chats the club's announcements go to (confirmed links only)."""
        roster = await self._roster.roster(club_id)
        if roster is not None:
            return list(roster.chats)
        rows = await (await self._conn()).execute(roster_chats, {"club_id": club_id})
        return [(r.platform, r.chat) for r in rows]

    async def add_link_code(
        self, club_id: int, code: str, expires_at: datetime, *, created_by: str = ""
    ) -> None:
        values = {
            "club_id": club_id,
            "code": code_hash(code),
            "expires_at": expires_at,
            "created_by": created_by,
        }
        await (await self._conn()).execute(insert(t.link_codes).values(values))

    async def redeem_link_code(self, code: str, now: datetime) -> int | None:
        """Return the club of an unexpired, unused code and mark it used."""
        c = t.link_codes.c
        # One statement: two redeemers of one code cannot both see it unused.
        query = (
            update(t.link_codes)
            .where(c.code == code_hash(code), c.used_at.is_(None), c.expires_at > now)
            .values(used_at=now)
            .returning(c.club_id)
        )
        club_id = (await (await self._conn()).execute(query)).scalar_one_or_none()
        return None if club_id is None else int(club_id)

    async def add_director(self, club_id: int, platform: str, external_id: str) -> None:
        keys = ("club_id", "platform", "external_id")
        query = insert_ignoring(self._dialect, t.directors, keys).values(
            club_id=club_id, platform=platform, external_id=external_id
        )
        if (await (await self._conn()).execute(query)).rowcount:
            await self._roster.changed(club_id)

    async def remove_director(self, club_id: int, platform: str, external_id: str) -> bool:
        """Take a stored director right away; return whether there was one."""
        c = t.directors.c
        query = delete(t.directors).where(
            c.club_id == club_id, c.platform == platform, c.external_id == external_id
        )
        removed = bool((await (await self._conn()).execute(query)).rowcount)
        if removed:
            await self._roster.changed(club_id)
        return removed

    async def directors(self, club_id: int) -> list[tuple[str, str]]:
        """Return the (platform, account) pairs given director rights in this club."""
        c = t.directors.c
        query = select(c.platform, c.external_id).where(c.club_id == club_id).order_by(c.id)
        return [(r.platform, r.external_id) for r in await (await self._conn()).execute(query)]

    async def is_director(self, club_id: int, platform: str, external_id: str) -> bool:
        roster = await self._roster.roster(club_id)
        if roster is not None:
            return (platform, external_id) in roster.directors
        asked = {"club_id": club_id, "platform": platform, "external_id": external_id}
        return (await (await self._conn()).execute(_IS_DIRECTOR, asked)).first() is not None
