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
from storage.repositories.tournaments import SqlTournamentRepository


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
    session: AsyncSession

    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine
        self._entered = False

    async def __aenter__(self) -> Self:
        if self._entered:
            raise RuntimeError("a unit of work is used once: make a new one")
        self._entered = True
        session = AsyncSession(self._engine, expire_on_commit=False)
        self.session = session
        self.clubs = SqlClubRepository(session)
        self.players = SqlPlayerRepository(session)
        self.tournaments = SqlTournamentRepository(session)
        self.sanctions = SqlSanctionRepository(session)
        self.rankings = SqlRankingRepository(session)
        self.outbox = SqlOutbox(session)
        self.audit = SqlAuditLog(session)
        self.updates = SqlProcessedUpdates(session)
        self.meta = SqlMeta(session)
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        try:
            # Whatever was not committed is undone: an exception, a forgotten commit.
            await self.session.rollback()
        finally:
            await self.session.close()

    async def commit(self) -> None:
        await self.session.commit()

    async def rollback(self) -> None:
        await self.session.rollback()
        # What the tournaments repository remembers as stored was just undone.
        self.tournaments.forget()


def unit_of_work_factory(engine: AsyncEngine) -> Callable[[], SqlUnitOfWork]:
    """Return a callable that makes a fresh unit of work on `engine`."""

    def make() -> SqlUnitOfWork:
        return SqlUnitOfWork(engine)

    return make
