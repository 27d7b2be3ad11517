"""Migrations: the first revision builds exactly the models; upgrading again is a no-op."""

from __future__ import annotations

from typing import Any

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import event, inspect
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

from storage.migrate import (
    alembic_config,
    current_revision,
    head_revision,
    upgrade,
    upgrade_engine,
)
from storage.tables import metadata


def _differences(connection: Connection) -> list[Any]:
    context = MigrationContext.configure(connection, opts={"compare_type": True})
    return list(compare_metadata(context, metadata))


def _tables(connection: Connection) -> set[str]:
    return set(inspect(connection).get_table_names())


def _downgrade_to_base(connection: Connection) -> None:
    config = alembic_config()
    config.attributes["connection"] = connection
    command.downgrade(config, "base")


async def test_the_migrated_schema_matches_the_models(engine: AsyncEngine) -> None:
    async with engine.connect() as conn:
        assert await conn.run_sync(_differences) == []
        assert await conn.run_sync(_tables) == set(metadata.tables) | {"alembic_version"}


async def test_upgrade_from_nothing_then_again_is_a_no_op(
    database_url: str, engine: AsyncEngine
) -> None:
    async with engine.begin() as conn:
        await conn.run_sync(_downgrade_to_base)
    async with engine.connect() as conn:
        assert await conn.run_sync(_tables) == {"alembic_version"}
    assert await current_revision(database_url) is None
    await upgrade(database_url)
    assert await current_revision(database_url) == head_revision()
    statements: list[str] = []

    def record(*args: Any) -> None:
        statements.append(args[2].split()[0].upper())

    event.listen(engine.sync_engine, "before_cursor_execute", record)
    try:
        await upgrade_engine(engine)
    finally:
        event.remove(engine.sync_engine, "before_cursor_execute", record)
    assert set(statements) <= {"BEGIN", "SELECT", "PRAGMA"}  # it only looked
    assert await current_revision(database_url) == head_revision()
    async with engine.connect() as conn:
        assert await conn.run_sync(_differences) == []


def test_the_head_read_from_the_scripts_is_alembics() -> None:
    """Issue 17: the start-up check reads the head without importing alembic."""
    from alembic.script import ScriptDirectory

    assert head_revision() == ScriptDirectory.from_config(alembic_config()).get_current_head()


async def test_the_stored_revision_is_read_as_alembic_reads_it(
    database_url: str, engine: AsyncEngine
) -> None:
    def alembics(connection: Connection) -> str | None:
        return MigrationContext.configure(connection).get_current_revision()

    async with engine.connect() as conn:
        assert await conn.run_sync(alembics) == head_revision()
    assert await current_revision(database_url) == head_revision()
    async with engine.begin() as conn:
        await conn.run_sync(_downgrade_to_base)
    async with engine.connect() as conn:
        assert await conn.run_sync(alembics) is None
    assert await current_revision(database_url) is None
