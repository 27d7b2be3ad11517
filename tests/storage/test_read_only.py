"""Look-ups never take SQLite's write lock (issue 17): a read-only unit of work begins
DEFERRED, so it reads while another process writes; a writing one still queues."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime

import pytest
from sqlalchemy import event, make_url
from sqlalchemy.exc import OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine

from commands.config import CommandConfig
from commands.dispatch import handle
from commands.session import Invocation
from storage import OutboxStore, make_engine
from storage.unit_of_work import unit_of_work_factory

NOW = datetime(2026, 1, 31, 20, 0, tzinfo=UTC)


@contextmanager
def writing_elsewhere(url: str) -> Iterator[None]:
    """Hold SQLite's write lock from another connection, as another process would."""
    path = make_url(url).database
    assert path is not None
    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        yield
    finally:
        other.execute("ROLLBACK")
        other.close()


@pytest.fixture
def sqlite_engine(sqlite_url: str) -> Iterator[AsyncEngine]:
    # A short busy timeout: a unit of work that wrongly waits for the lock fails fast.
    engine = make_engine(sqlite_url, connect_args={"timeout": 0.2})
    yield engine


async def test_a_read_only_unit_of_work_reads_while_another_process_writes(
    sqlite_engine: AsyncEngine, sqlite_url: str
) -> None:
    factory = unit_of_work_factory(sqlite_engine)
    async with factory() as uow:
        await uow.clubs.add("Club", "UTC", "en", NOW)
        await uow.commit()
    with writing_elsewhere(sqlite_url):
        async with factory(read_only=True) as uow:
            assert [c.name for c in await uow.clubs.all()] == ["Club"]
        assert await OutboxStore(sqlite_engine).pending_count() == 0
    await sqlite_engine.dispose()


async def test_a_look_up_command_answers_while_another_process_writes(
    sqlite_engine: AsyncEngine, sqlite_url: str
) -> None:
    factory = unit_of_work_factory(sqlite_engine)
    config = CommandConfig(directors=frozenset({("console", "ana")}))
    opened = await handle(
        Invocation("console", "club", "ana", "ana", "/club", NOW),
        uow_factory=factory,
        config=config,
    )
    assert opened is not None and not opened.refused
    with writing_elsewhere(sqlite_url):
        inv = Invocation("console", "club", "ana", "ana", "/standings", NOW)
        response = await handle(inv, uow_factory=factory, config=config)
    assert response is not None
    assert "internal" not in str(response.reply).lower()
    await sqlite_engine.dispose()


def _short_busy_timeout(dbapi_connection: sqlite3.Connection, _record: object) -> None:
    dbapi_connection.execute("PRAGMA busy_timeout=200")


async def test_a_writing_unit_of_work_that_meets_the_lock_fails_as_sqlalchemy_says(
    sqlite_engine: AsyncEngine, sqlite_url: str
) -> None:
    """BEGIN IMMEDIATE goes to sqlite3 itself; its "database is locked" still reaches
    the caller as SQLAlchemy's OperationalError, and the connection serves on."""
    # The engine's own busy timeout is 10 s: wait 0.2 s here.
    event.listen(sqlite_engine.sync_engine, "connect", _short_busy_timeout)
    factory = unit_of_work_factory(sqlite_engine)
    with writing_elsewhere(sqlite_url), pytest.raises(OperationalError, match="locked"):
        async with factory() as uow:
            await uow.clubs.add("Club", "UTC", "en", NOW)
    async with factory() as uow:
        await uow.clubs.add("Club", "UTC", "en", NOW)
        await uow.commit()
    async with factory(read_only=True) as uow:
        assert [c.name for c in await uow.clubs.all()] == ["Club"]
    await sqlite_engine.dispose()
