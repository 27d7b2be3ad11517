"""The unit of work: one session, one transaction, every repository on it.

    async with factory() as uow:
        state = await uow.tournaments.current(club_id, for_update=True)
        ...
        await uow.tournaments.save(state)
        await uow.commit()

Leaving the block without `commit()` rolls back. On SQLite the transaction begins
IMMEDIATE (writers queue on the busy timeout); on PostgreSQL `for_update` locks the
tournament row until commit.
"""

from __future__ import annotations

from collections.abc import Callable
from types import TracebackType
from typing import Self

from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession

from storage.engine import is_sqlite
from storage.housekeeping import SqlButtonTokens, SqlHousekeeping
from storage.outbox import SqlOutbox
from storage.repositories.club_records import (
    SqlAuditLog,
    SqlMeta,
    SqlProcessedUpdates,
    SqlRankingRepository,
    SqlSanctionRepository,
)
from storage.repositories.clubs import SqlClubRepository
from storage.repositories.players import SqlPlayerRepository
from storage.repositories.tournaments import SqlTournamentRepository, StateCache


class SqlUnitOfWork:
    """One transaction over every repository; use once, as `async with`."""

    clubs: SqlClubRepository
    players: SqlPlayerRepository
    tournaments: SqlTournamentRepository
    sanctions: SqlSanctionRepository
    rankings: SqlRankingRepository
    outbox: SqlOutbox
    audit: SqlAuditLog
    updates: SqlProcessedUpdates
    meta: SqlMeta
    buttons: SqlButtonTokens
    housekeeping: SqlHousekeeping
    session: AsyncSession

    def __init__(self, engine: AsyncEngine, cache: StateCache | None = None) -> None:
        self._engine = engine
        self._entered = False
        self._cache = cache

    async def __aenter__(self) -> Self:
        if self._entered:
            raise RuntimeError("a unit of work is used once: make a new one")
        self._entered = True
        session = AsyncSession(self._engine, expire_on_commit=False)
        self.session = session
        self.clubs = SqlClubRepository(session)
        self.players = SqlPlayerRepository(session)
        self.tournaments = SqlTournamentRepository(
            session, self._cache, serialised=is_sqlite(self._engine)
        )
        self.sanctions = SqlSanctionRepository(session)
        self.rankings = SqlRankingRepository(session)
        self.outbox = SqlOutbox(session)
        self.audit = SqlAuditLog(session)
        self.updates = SqlProcessedUpdates(session)
        self.meta = SqlMeta(session)
        self.buttons = SqlButtonTokens(session)
        self.housekeeping = SqlHousekeeping(session)
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        try:
            # Evict before the transaction ends: nobody else may see a state this unit of
            # work changed without committing (after a commit nothing is left to evict).
            self.tournaments.forget()
            # Whatever was not committed is undone: an exception, a forgotten commit.
            await self.session.rollback()
        finally:
            await self.session.close()

    async def commit(self) -> None:
        try:
            await self.session.commit()
        except BaseException:
            self.tournaments.forget()
            raise
        self.tournaments.committed()

    async def rollback(self) -> None:
        # What the tournaments repository remembers as stored is about to be undone.
        self.tournaments.forget()
        await self.session.rollback()


def unit_of_work_factory(
    engine: AsyncEngine, *, cache: bool = True
) -> Callable[[], SqlUnitOfWork]:
    """Return a callable that makes a fresh unit of work on `engine`; its units share a
    cache of loaded tournaments unless `cache` is False (one cache per factory)."""
    shared = StateCache() if cache else None

    def make() -> SqlUnitOfWork:
        return SqlUnitOfWork(engine, shared)

    return make
