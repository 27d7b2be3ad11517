"""Clubs, the chats linked to them, link codes and directors."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Row, insert, select, update

from storage import tables as t
from storage.repositories.base import NotFound, SqlRepository, insert_ignoring, upsert
from tournament.club import Club


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

    async def for_chat(self, platform: str, chat: str) -> Club | None:
        query = (
            select(t.clubs)
            .join(t.chats, t.chats.c.club_id == t.clubs.c.id)
            .where(t.chats.c.platform == platform, t.chats.c.chat == chat)
        )
        row = (await (await self._conn()).execute(query)).first()
        return None if row is None else _club(row)

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
        return [_club(r) for r in await (await self._conn()).execute(query)]

    async def get(self, club_id: int) -> Club:
        query = select(t.clubs).where(t.clubs.c.id == club_id)
        row = (await (await self._conn()).execute(query)).first()
        if row is None:
            raise NotFound(f"club {club_id}")
        return _club(row)

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

    async def link_chat(self, club_id: int, platform: str, chat: str) -> None:
        """Link a chat to a club; a chat linked elsewhere moves to this club."""
        values = {"platform": platform, "chat": chat, "club_id": club_id}
        query = upsert(self._dialect, t.chats, ("platform", "chat"), values)
        await (await self._conn()).execute(query)

    async def chats(self, club_id: int) -> list[tuple[str, str]]:
        c = t.chats.c
        query = select(c.platform, c.chat).where(c.club_id == club_id).order_by(c.id)
        return [(r.platform, r.chat) for r in await (await self._conn()).execute(query)]

    async def add_link_code(self, club_id: int, code: str, expires_at: datetime) -> None:
        values = {"club_id": club_id, "code": code, "expires_at": expires_at}
        await (await self._conn()).execute(insert(t.link_codes).values(values))

    async def redeem_link_code(self, code: str, now: datetime) -> int | None:
        """Return the club of an unexpired, unused code and mark it used."""
        c = t.link_codes.c
        # One statement: two redeemers of one code cannot both see it unused.
        query = (
            update(t.link_codes)
            .where(c.code == code, c.used_at.is_(None), c.expires_at > now)
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
        await (await self._conn()).execute(query)

    async def is_director(self, club_id: int, platform: str, external_id: str) -> bool:
        c = t.directors.c
        query = select(c.id).where(
            c.club_id == club_id, c.platform == platform, c.external_id == external_id
        )
        return (await (await self._conn()).execute(query)).first() is not None
