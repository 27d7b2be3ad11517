"""SQLite's one connection goes to one holder at a time; the others wait in the event loop,
and a waiter that gives up (a cancelled command) never keeps it from the next one. The
write-ahead log is copied back to the database file off the commit path."""

from __future__ import annotations

import asyncio
from pathlib import Path

from sqlalchemy import text

from storage.engine import make_engine
from storage.sqlite_driver import CHECKPOINT_EVERY, SQLiteConnection, SQLiteEngine


def _engine(tmp_path: Path) -> SQLiteEngine:
    engine = make_engine(f"sqlite:///{tmp_path / 'gate.db'}")
    assert isinstance(engine, SQLiteEngine)
    return engine


async def _taken(engine: SQLiteEngine) -> SQLiteConnection:
    return await asyncio.wait_for(engine.connect().start(), timeout=2)


async def test_a_second_holder_waits_until_the_first_gives_the_connection_back(
    tmp_path: Path,
) -> None:
    engine = _engine(tmp_path)
    first = await _taken(engine)
    second = asyncio.create_task(_taken(engine))
    await asyncio.sleep(0.01)
    assert not second.done()
    await first.close()
    conn = await second
    assert (await conn.execute(text("select 1"))).scalar() == 1
    await conn.close()
    await engine.dispose()


async def test_a_cancelled_waiter_does_not_keep_the_connection_from_the_next(
    tmp_path: Path,
) -> None:
    engine = _engine(tmp_path)
    first = await _taken(engine)
    gave_up = asyncio.create_task(_taken(engine))
    await asyncio.sleep(0.01)
    gave_up.cancel()
    await asyncio.gather(gave_up, return_exceptions=True)
    await first.close()
    await (await _taken(engine)).close()
    await engine.dispose()


async def test_a_waiter_cancelled_as_its_turn_came_passes_the_connection_on(
    tmp_path: Path,
) -> None:
    engine = _engine(tmp_path)
    first = await _taken(engine)
    handed = asyncio.create_task(_taken(engine))
    await asyncio.sleep(0.01)
    await first.close()  # its turn is scheduled, not yet run
    handed.cancel()
    await asyncio.gather(handed, return_exceptions=True)
    await (await _taken(engine)).close()
    await engine.dispose()


async def test_the_read_only_twin_shares_the_one_connection(tmp_path: Path) -> None:
    engine = _engine(tmp_path)
    twin = engine.execution_options(clubtd_read_only=True)
    first = await _taken(engine)
    reading = asyncio.create_task(_taken(twin))
    await asyncio.sleep(0.01)
    assert not reading.done()
    await first.close()
    await (await reading).close()
    await engine.dispose()


async def test_the_log_is_copied_back_in_the_background_every_hundred_commits(
    tmp_path: Path,
) -> None:
    engine = _engine(tmp_path)
    async with engine.begin() as conn:
        await conn.execute(text("create table t (a text)"))
        # Never in a command's commit: SQLite's own checkpoint is off.
        assert (await conn.exec_driver_sql("PRAGMA wal_autocheckpoint")).scalar() == 0
    database = tmp_path / "gate.db"
    before = database.stat().st_size
    for _ in range(CHECKPOINT_EVERY - 2):  # the create was the first commit
        async with engine.begin() as conn:
            await conn.execute(text("insert into t values (:a)"), {"a": "x" * 2000})
    await asyncio.sleep(0.05)
    assert database.stat().st_size == before  # all of it still in the log
    async with engine.begin() as conn:
        await conn.execute(text("insert into t values ('last')"))
    # The checkpoint writes the pages as it goes: a busy machine saw the file half grown.
    for _ in range(500):
        if database.stat().st_size > before + 100 * 2000:
            break
        await asyncio.sleep(0.01)
    assert database.stat().st_size > before + 100 * 2000
    await engine.dispose()
