"""Club-wide records: sanctions, the imported ranking, the audit log, processed
updates and meta values."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import Row, bindparam, delete, func, insert, select, update
from sqlalchemy.sql.dml import Insert

from storage import tables as t
from storage.repositories.base import NotFound, SqlRepository, insert_ignoring, upsert
from tournament.sanctions import Sanction


def _sanction_values(sanction: Sanction) -> dict[str, Any]:
    return {
        "player_id": sanction.player,
        "reason": sanction.reason,
        "origin": sanction.origin,
        "applies_to": sanction.applies_to,
        "created_at": sanction.created_at,
        "note": sanction.note,
        "kind": sanction.kind,
        "active": sanction.active,
        "ended_at": sanction.ended_at,
        "ended_by": sanction.ended_by,
        "ended_note": sanction.ended_note,
    }


def _sanction(row: Row[Any]) -> Sanction:
    return Sanction(
        id=row.id,
        player=row.player_id,
        reason=row.reason,
        origin=row.origin,
        applies_to=row.applies_to,
        created_at=row.created_at,
        note=row.note,
        kind=row.kind,
        active=row.active,
        ended_at=row.ended_at,
        ended_by=row.ended_by,
        ended_note=row.ended_note,
    )


_META_GET = select(t.meta.c.value).where(t.meta.c.key == bindparam("key"))
_META_SET: dict[str, Insert] = {}


_SANCTIONS = (
    select(t.sanctions)
    .where(t.sanctions.c.club_id == bindparam("club_id"))
    .order_by(t.sanctions.c.id)
)


class SqlSanctionRepository(SqlRepository):
    """Suspensions and other sanctions of a club's players."""

    async def for_club(self, club_id: int) -> list[Sanction]:
        rows = await (await self._conn()).execute(_SANCTIONS, {"club_id": club_id})
        return [_sanction(r) for r in rows]

    async def add(self, club_id: int, sanction: Sanction) -> Sanction:
        """Store a new sanction; return it with its id set."""
        values = {**_sanction_values(sanction), "club_id": club_id}
        query = insert(t.sanctions).values(values).returning(t.sanctions.c.id)
        sanction_id = (await (await self._conn()).execute(query)).scalar_one()
        return replace(sanction, id=sanction_id)

    async def save(self, sanction: Sanction) -> None:
        query = (
            update(t.sanctions)
            .where(t.sanctions.c.id == sanction.id)
            .values(_sanction_values(sanction))
        )
        if (await (await self._conn()).execute(query)).rowcount != 1:
            raise NotFound(f"sanction {sanction.id}")


class SqlRankingRepository(SqlRepository):
    """A club's ranking from before the bot, imported once and kept exact."""

    async def imported(
        self, club_id: int, game: str = "backgammon", *, year: int | None = None
    ) -> list[tuple[int, Decimal]]:
        """Return a game's imported ranking, best first: (player id, points); with `year`,
        only when it was imported that year (an import is the season so far)."""
        c = t.ranking_imports.c
        query = (
            select(c.player_id, c.points, c.imported_at)
            .where(c.club_id == club_id, c.game == game)
            .order_by(c.position)
        )
        result = await (await self._conn()).execute(query)
        return [
            (r.player_id, Decimal(r.points))
            for r in result
            if year is None or r.imported_at is None or r.imported_at.year == year
        ]

    async def imported_games(self, club_id: int) -> list[str]:
        """Return the games that have an imported ranking."""
        c = t.ranking_imports.c
        query = select(c.game).where(c.club_id == club_id).distinct().order_by(c.game)
        return [r.game for r in await (await self._conn()).execute(query)]

    async def imported_year(self, club_id: int, game: str) -> int | None:
        """Return the year a game's ranking was imported in (None: none, or undated)."""
        c = t.ranking_imports.c
        query = select(func.max(c.imported_at)).where(c.club_id == club_id, c.game == game)
        at = (await (await self._conn()).execute(query)).scalar()
        return None if at is None else at.year

    async def replace_imported(
        self,
        club_id: int,
        rows: Sequence[tuple[int, Decimal]],
        game: str = "backgammon",
        at: datetime | None = None,
    ) -> None:
        conn = await self._conn()
        c = t.ranking_imports.c
        await conn.execute(delete(t.ranking_imports).where(c.club_id == club_id, c.game == game))
        if rows:
            values = [
                {
                    "club_id": club_id,
                    "game": game,
                    "player_id": p,
                    "position": i,
                    "points": str(points),
                    "imported_at": at,
                }
                for i, (p, points) in enumerate(rows, start=1)
            ]
            await conn.execute(insert(t.ranking_imports), values)


_AUDIT_INSERT = insert(t.audit_log)  # built once: a command logs one or two entries
_REMEMBER: dict[str, Insert] = {}  # the dialect's insert of a processed update id


class SqlAuditLog(SqlRepository):
    """Who did what, when: every director's act and automatic effect."""

    async def add(
        self,
        *,
        club_id: int | None,
        tournament_id: int | None,
        actor: str,
        action: str,
        detail: Mapping[str, Any],
        at: datetime,
    ) -> None:
        await self.add_many(
            [
                {
                    "club_id": club_id,
                    "tournament_id": tournament_id,
                    "actor": actor,
                    "action": action,
                    "detail": detail,
                    "at": at,
                }
            ]
        )

    async def add_many(self, entries: Sequence[Mapping[str, Any]]) -> None:
        """Log several entries (keyword sets of `add`) with one statement."""
        if not entries:
            return
        rows = [{**entry, "detail": dict(entry["detail"])} for entry in entries]
        if self._dialect == "postgresql":
            # Held for the outbox's insert of the same command's messages, which writes
            # both in one round trip (storage/outbox.py), or for the commit.
            self._transaction.hold(t.audit_log, rows)
            return
        await (await self._conn()).execute(_AUDIT_INSERT, rows)

    async def count(self, *, action: str, actor: str, since: datetime) -> int:
        """Return how many entries of `action` by exactly `actor` were logged since then."""
        await self._transaction.write_held(t.audit_log)
        c = t.audit_log.c
        query = (
            select(func.count())
            .select_from(t.audit_log)
            .where(c.action == action, c.actor == actor, c.at >= since)
        )
        return int((await (await self._conn()).execute(query)).scalar_one())

    async def former_names(self, club_id: int) -> list[tuple[int, str]]:
        """Return the names the club's tournaments were renamed from, (tournament id, name),
        oldest first."""
        await self._transaction.write_held(t.audit_log)
        c = t.audit_log.c
        query = (
            select(c.tournament_id, c.detail)
            .where(c.club_id == club_id, c.action == "tournament_rename")
            .order_by(c.id)
        )
        rows = (await (await self._conn()).execute(query)).all()
        return [(r.tournament_id, str(r.detail["was"])) for r in rows if r.tournament_id]

    async def acts(
        self, tournament_id: int, *, limit: int, not_by: str | None = None
    ) -> list[tuple[str, str, dict[str, Any], datetime]]:
        """Return the entries logged for a tournament, (actor, action, detail, at), but
        those of `not_by` (the rules' own effects) if given: the newest `limit`, oldest
        first."""
        await self._transaction.write_held(t.audit_log)
        c = t.audit_log.c
        query = select(c.actor, c.action, c.detail, c.at).where(c.tournament_id == tournament_id)
        if not_by is not None:
            query = query.where(c.actor != not_by)
        query = query.order_by(c.id.desc()).limit(limit)
        rows = (await (await self._conn()).execute(query)).all()
        return [(r.actor, r.action, dict(r.detail), r.at) for r in reversed(rows)]


class SqlProcessedUpdates(SqlRepository):
    """Platform update ids already handled, so a redelivered update is applied once."""

    async def remember(self, platform: str, update_id: str, at: datetime) -> bool:
        """Record a platform update id; return False if it was already processed.
        Lock-free (storage/transaction.py), it is held for the last statement, which
        writes nothing if the id was processed meanwhile; True until then."""
        values = {"platform": platform, "update_id": update_id, "at": at}
        if self._transaction.lock_free:
            self._transaction.hold(t.processed_updates, [values])
            return True
        query = _REMEMBER.get(self._dialect)
        if query is None:
            # Built once per dialect, the values bound at execution: building the
            # statement anew was a quarter of a refused /report (issue 17).
            query = insert_ignoring(self._dialect, t.processed_updates, ("platform", "update_id"))
            _REMEMBER[self._dialect] = query
        result = await (await self._conn()).execute(query, values)
        return result.rowcount == 1

    async def forget_before(self, moment: datetime) -> int:
        """Delete the ids recorded before `moment` (platforms stop redelivering); count them."""
        query = delete(t.processed_updates).where(t.processed_updates.c.at < moment)
        return (await (await self._conn()).execute(query)).rowcount


class SqlMeta(SqlRepository):
    """Small key-value facts about the installation."""

    async def get(self, key: str) -> str | None:
        found = (await (await self._conn()).execute(_META_GET, {"key": key})).scalar_one_or_none()
        return None if found is None else str(found)

    async def set(self, key: str, value: str) -> None:
        query = _META_SET.get(self._dialect)
        if query is None:  # built once per dialect: the console stores its clock often
            bound: dict[str, Any] = {"key": bindparam("m_key"), "value": bindparam("m_value")}
            query = _META_SET[self._dialect] = upsert(self._dialect, t.meta, ("key",), bound)
        await (await self._conn()).execute(query, {"m_key": key, "m_value": value})

    async def starting(self, prefix: str) -> dict[str, str]:
        """Return every key beginning with `prefix`, with its value."""
        query = select(t.meta.c.key, t.meta.c.value).where(
            t.meta.c.key.startswith(prefix, autoescape=True)
        )
        rows = await (await self._conn()).execute(query)
        return {str(r.key): str(r.value) for r in rows if str(r.key).startswith(prefix)}
