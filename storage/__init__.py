"""Persistence: SQLAlchemy Core tables, repositories returning `tournament/` objects, a unit of
work, the outbox and migrations. SQLite by default, PostgreSQL by URL.

Imports only `tournament` (and third-party libraries); `commands` reaches it through
the structural protocols of `commands.ports`.
"""

from storage.engine import make_engine
from storage.locks import SchedulerLock
from storage.migrate import upgrade
from storage.outbox import OutboxRow, OutboxStore
from storage.repositories.base import NotFound, StaleState
from storage.unit_of_work import SqlUnitOfWork, unit_of_work_factory

__all__ = [
    "NotFound",
    "OutboxRow",
    "OutboxStore",
    "SchedulerLock",
    "SqlUnitOfWork",
    "StaleState",
    "make_engine",
    "unit_of_work_factory",
    "upgrade",
]
