"""The unit of work: one transaction, every repository on it.

    async with factory() as uow:
        state = await uow.tournaments.current(club_id, for_update=True)
        ...
        await uow.tournaments.save(state)
        await uow.commit()

Leaving the block without `commit()` rolls back. On SQLite the transaction begins
IMMEDIATE (writers queue on the busy timeout), or DEFERRED for a unit of work made
`read_only` (a look-up: it takes no write lock, and should write nothing; a write it
does anyway takes the lock then); on PostgreSQL `for_update` locks the tournament row
until commit. A unit of work made `lock_free` on PostgreSQL locks nothing and writes in
one statement, or nothing (storage/transaction.py): when it raised and
`must_retry_locked` is set, run its command again in a unit of work that locks.
"""

from __future__ import annotations

from types import TracebackType
from typing import Protocol, Self

from storage.engine import Database, is_sqlite, reader
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
from storage.repositories.roster import RosterCache, RosterView
from storage.repositories.tournaments import SqlTournamentRepository, StateCache
from storage.transaction import Transaction


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
    transaction: Transaction

    def __init__(
        self,
        engine: Database,
        cache: StateCache | None = None,
        *,
        bind: Database | None = None,
        rosters: RosterCache | None = None,
        lock_free: bool = False,
    ) -> None:
        self._lock_free = lock_free
        self._engine = engine
        self._rosters = rosters
        self._bind = bind or engine  # the engine's reader for a read-only unit of work
        self._entered = False
        self._cache = cache

    async def __aenter__(self) -> Self:
        if self._entered:
            raise RuntimeError("a unit of work is used once: make a new one")
        self._entered = True
        tx = self.transaction = Transaction(self._bind, lock_free=self._lock_free)
        self._roster = RosterView(tx, self._rosters)
        self.tournaments = SqlTournamentRepository(
            tx, self._cache, serialised=is_sqlite(self._engine)
        )
        self.clubs = SqlClubRepository(tx, self._roster, self.tournaments)
        self.players = SqlPlayerRepository(tx, self._roster)
        self.sanctions = SqlSanctionRepository(tx)
        self.rankings = SqlRankingRepository(tx)
        self.outbox = SqlOutbox(tx)
        self.audit = SqlAuditLog(tx)
        self.updates = SqlProcessedUpdates(tx)
        self.meta = SqlMeta(tx)
        self.buttons = SqlButtonTokens(tx)
        self.housekeeping = SqlHousekeeping(tx)
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        # Evict before the transaction ends: nobody else may see a state this unit of
        # work changed without committing (after a commit nothing is left to evict).
        self.tournaments.forget()
        self._roster.forget()
        # Whatever was not committed is undone: an exception, a forgotten commit.
        await self.transaction.rollback()

    @property
    def must_retry_locked(self) -> bool:
        """Whether this lock-free unit of work gave up, writing nothing: its command must
        run again in one that locks."""
        return self.transaction.must_retry_locked

    async def commit(self) -> None:
        try:
            await self.outbox.write_last()  # lock-free without messages: its one statement
            await self.transaction.commit()
        except BaseException:
            self.tournaments.forget()
            raise
        self.tournaments.committed()

    async def rollback(self) -> None:
        # What the tournaments repository remembers as stored is about to be undone.
        self.tournaments.forget()
        self._roster.forget()
        await self.transaction.rollback()


class UnitOfWorkFactory(Protocol):
    def __call__(self, *, read_only: bool = False, lock_free: bool = False) -> SqlUnitOfWork: ...


class SqlUnitOfWorkFactory(Protocol):
    """Make a unit of work on the database (a `commands.ports.UnitOfWorkFactory`)."""

    def __call__(self, *, read_only: bool = False, lock_free: bool = False) -> SqlUnitOfWork: ...


def unit_of_work_factory(engine: Database, *, cache: bool = True) -> SqlUnitOfWorkFactory:
    """Return a callable that makes a fresh unit of work on `engine` (`read_only=True`:
    a look-up's, which takes no write lock); its units share a cache of loaded
    tournaments and of club rosters unless `cache` is False (one cache per factory)."""
    shared = StateCache() if cache else None
    rosters = RosterCache() if cache else None
    look_ups: Database | None = None  # made on the first look-up: a factory is free

    def make(*, read_only: bool = False, lock_free: bool = False) -> SqlUnitOfWork:
        nonlocal look_ups
        if read_only and look_ups is None:
            look_ups = reader(engine)
        return SqlUnitOfWork(
            engine,
            shared,
            bind=look_ups if read_only else None,
            rosters=rosters,
            lock_free=lock_free and not read_only,
        )

    return make
