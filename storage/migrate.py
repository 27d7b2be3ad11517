"""Bring a database to the newest schema; the app calls `upgrade(url)` on start.

Migrations live in `storage/migrations` (alembic). `upgrade` reads the stored revision
first and returns at once when it is the head, so calling it on every start is cheap.
Concurrent starts are safe: the check and the upgrade share one transaction, which is
BEGIN IMMEDIATE on SQLite and holds an advisory lock on PostgreSQL.

For developers, from the project root:
    python -m storage.migrate upgrade sqlite:///clubtd.db
    python -m storage.migrate current sqlite:///clubtd.db
    python -m storage.migrate revision "add a column" sqlite:///scratch.db   # autogenerate
"""

from __future__ import annotations

import ast
import asyncio
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import inspect, text
from sqlalchemy.engine import URL, Connection

from storage.engine import make_engine

if TYPE_CHECKING:
    from alembic.config import Config
    from sqlalchemy.ext.asyncio import AsyncEngine

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
# Serialises concurrent upgraders on PostgreSQL (a key of its own, not the scheduler's).
_MIGRATION_LOCK_KEY = 0x636C_7562_7464_4D


# Alembic is imported only to migrate: every start of every command checks the revision,
# and importing alembic costs more than the rest of a short command (issue 17).
_ASSIGNMENT = re.compile(r"^(revision|down_revision)\b[^=\n]*=\s*(.+)$", re.MULTILINE)


def alembic_config() -> Config:
    """Return an alembic configuration pointing at the package's migrations."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def head_revision() -> str:
    """Return the newest revision of the migration scripts."""
    heads = _script_heads()
    if heads is not None and len(heads) == 1:
        return heads.pop()
    from alembic.script import ScriptDirectory  # several heads or odd scripts: alembic says

    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    if head is None:
        raise RuntimeError(f"no migrations in {MIGRATIONS}")
    return head


def _script_heads() -> set[str] | None:
    """Return the revisions no script builds on, read from the scripts' text.

    None when a script does not read plainly (then alembic reads them).
    """
    revisions: set[str] = set()
    parents: set[str] = set()
    for path in sorted((MIGRATIONS / "versions").glob("*.py")):
        text_ = path.read_text(encoding="utf-8")
        found: dict[str, str] = {m[1]: m[2] for m in _ASSIGNMENT.finditer(text_)}
        if "revision" not in found:
            continue  # not a migration (the package's __init__)
        try:
            revision = ast.literal_eval(found["revision"])
            down = ast.literal_eval(found.get("down_revision", "None"))
        except (ValueError, SyntaxError):
            return None
        if not isinstance(revision, str):
            return None
        revisions.add(revision)
        if isinstance(down, str):
            parents.add(down)
        elif isinstance(down, tuple | list):
            parents.update(str(d) for d in down)
        elif down is not None:
            return None
    return revisions - parents if revisions else None


def _current(connection: Connection) -> str | None:
    """Return the database's revision, as alembic keeps it in `alembic_version`."""
    if not inspect(connection).has_table("alembic_version"):
        return None
    rows = connection.execute(text("SELECT version_num FROM alembic_version")).scalars().all()
    if len(rows) <= 1:
        return rows[0] if rows else None
    from alembic.runtime.migration import MigrationContext  # several heads: alembic decides

    return MigrationContext.configure(connection).get_current_revision()


def _upgrade(connection: Connection) -> None:
    from alembic import command

    config = alembic_config()
    config.attributes["connection"] = connection
    command.upgrade(config, "head")


async def upgrade_engine(engine: AsyncEngine) -> None:
    """Bring the engine's database to the head revision (a no-op when it is there)."""
    head = head_revision()
    async with engine.connect() as conn:
        # A read first, outside the writers' queue: the common case is "already there".
        if await conn.run_sync(_current) == head:
            return
    async with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            await conn.execute(
                text("SELECT pg_advisory_xact_lock(:key)"), {"key": _MIGRATION_LOCK_KEY}
            )
        if await conn.run_sync(_current) != head:
            await conn.run_sync(_upgrade)


async def upgrade(url: str | URL) -> None:
    """Bring the database at `url` (SQLite file or PostgreSQL) to the head revision."""
    engine = make_engine(url)
    try:
        await upgrade_engine(engine)
    finally:
        await engine.dispose()


async def current_revision(url: str | URL) -> str | None:
    """Return the database's revision, None before the first migration."""
    engine = make_engine(url)
    try:
        async with engine.connect() as conn:
            return await conn.run_sync(_current)
    finally:
        await engine.dispose()


async def _autogenerate(url: str | URL, message: str) -> None:
    # Autogenerate compares the models with a database at head: bring it there first.
    engine = make_engine(url)
    try:
        await upgrade_engine(engine)
        async with engine.begin() as conn:

            def revision(connection: Connection) -> None:
                from alembic import command

                config = alembic_config()
                config.attributes["connection"] = connection
                command.revision(config, message=message, autogenerate=True)

            await conn.run_sync(revision)
    finally:
        await engine.dispose()


def main(argv: list[str]) -> int:
    """Run `upgrade URL`, `current URL` or `revision MESSAGE URL`."""
    match argv:
        case ["upgrade", url]:
            asyncio.run(upgrade(url))
        case ["current", url]:
            print(asyncio.run(current_revision(url)))
        case ["revision", message, url]:
            asyncio.run(_autogenerate(url, message))
        case _:
            print(__doc__)
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
