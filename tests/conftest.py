"""Shared fixtures: every storage-backed test runs on SQLite and PostgreSQL; and how
many examples the property tests try.

`database_url` yields a fresh database at the head revision: a SQLite file in tmp_path,
or a new PostgreSQL database `clubtd_test_<random>` (dropped afterwards). Each session
migrates one template per database and copies it, which is much faster than migrating
every test. PostgreSQL tests skip when no server answers on 127.0.0.1:5432, unless
CLUBTD_REQUIRE_POSTGRES=1 (CI), where they fail instead.

Property tests (Hypothesis) say how many examples they want; by default each tries a
quarter of them (at least `FEWEST`), so that `pytest` stays quick. The `thorough`
profile (`HYPOTHESIS_PROFILE=thorough`, set by CI) tries every one.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import shutil
from collections.abc import AsyncIterator, Callable, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import asyncpg  # type: ignore[import-untyped]
import hypothesis
import pytest
import pytest_asyncio
from sqlalchemy.ext.asyncio import AsyncEngine

from storage.engine import make_engine
from storage.migrate import upgrade
from storage.unit_of_work import SqlUnitOfWorkFactory, unit_of_work_factory
from tests.telegram import emulator as emu

POSTGRES_HOST = "127.0.0.1"
POSTGRES_PORT = 5432
POSTGRES_USERS = ("postgres", "root")

T = TypeVar("T")

PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "quick")
FEWEST = 20  # examples a property test tries at least, in the quick profile
hypothesis.settings.register_profile("quick", max_examples=100)  # scaled by the hook below
hypothesis.settings.register_profile("thorough", max_examples=100)
hypothesis.settings.load_profile(PROFILE)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """In the quick profile, a property test tries a quarter of the examples it asks for."""
    if PROFILE != "quick":
        return
    seen: set[int] = set()  # a test run on two databases is one function
    for item in items:
        test = getattr(item, "obj", None)
        chosen = getattr(test, "_hypothesis_internal_use_settings", None)
        if chosen is None or getattr(test, "hypothesis", None) is None or id(test) in seen:
            continue
        seen.add(id(test))
        fewer = max(FEWEST, chosen.max_examples // 4)
        if fewer < chosen.max_examples:
            test._hypothesis_internal_use_settings = hypothesis.settings(  # type: ignore[union-attr]
                chosen, max_examples=fewer
            )


def _run(coroutine: Coroutine[Any, Any, T]) -> T:
    # A thread of its own: its event loop never meets the one pytest-asyncio runs.
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


async def _admin(user: str) -> asyncpg.Connection:
    return await asyncpg.connect(
        host=POSTGRES_HOST, port=POSTGRES_PORT, user=user, database="postgres", timeout=5
    )


async def _admin_user() -> tuple[str | None, str]:
    errors = []
    for user in POSTGRES_USERS:
        try:
            conn = await _admin(user)
        except (OSError, TimeoutError, asyncpg.PostgresError) as error:
            errors.append(f"{user}: {error}")
            continue
        await conn.close()
        return user, ""
    return None, "; ".join(errors)


async def _admin_execute(user: str, *statements: str) -> None:
    conn = await _admin(user)
    try:
        for statement in statements:
            await conn.execute(statement)
    finally:
        await conn.close()


def _url(user: str, database: str) -> str:
    return f"postgresql://{user}@{POSTGRES_HOST}:{POSTGRES_PORT}/{database}"


@dataclass(frozen=True, slots=True)
class _Postgres:
    user: str
    template: str


@pytest.fixture(scope="session")
def _postgres() -> Iterator[_Postgres]:
    user, errors = _run(_admin_user())
    if user is None:
        message = f"PostgreSQL not reachable on {POSTGRES_HOST}:{POSTGRES_PORT}: {errors}"
        if os.environ.get("CLUBTD_REQUIRE_POSTGRES") == "1":
            pytest.fail(message)
        pytest.skip(message)
    server = _Postgres(user=user, template=f"clubtd_tpl_{secrets.token_hex(4)}")
    _run(_admin_execute(user, f'CREATE DATABASE "{server.template}"'))
    try:
        _run(upgrade(_url(user, server.template)))
        yield server
    finally:
        _run(_admin_execute(user, f'DROP DATABASE IF EXISTS "{server.template}" WITH (FORCE)'))


class _Reused:
    """One PostgreSQL database per test process, emptied before each test.

    Creating a database from the template and dropping it cost ~0.6 s a test here (both
    write the whole database and wait for the disk); emptying every table and restarting
    the sequences costs ~2 ms. A test that changed the schema (a downgrade) or left it
    unreadable gets a database made afresh, so every test still starts at the head
    revision with no rows, exactly as from the template.
    """

    def __init__(self, server: _Postgres) -> None:
        self.server = server
        self.name: str | None = None
        self.tables: frozenset[str] = frozenset()
        self.revision: str | None = None

    async def fresh(self) -> str:
        """Return the URL of the process's database, empty and at the head revision."""
        if self.name is not None and await self._emptied(self.name):
            return _url(self.server.user, self.name)
        await self.drop()
        name = f"clubtd_test_{secrets.token_hex(6)}"
        await _admin_execute(
            self.server.user,
            f'CREATE DATABASE "{name}" TEMPLATE "{self.server.template}"',
            # A test never outlives a crash of the server: a commit need not wait for
            # the disk (the database behaves the same, only faster).
            f'ALTER DATABASE "{name}" SET synchronous_commit = off',
        )
        conn = await self._connect(name)
        try:
            self.tables = frozenset(await self._tables(conn))
            self.revision = await conn.fetchval("SELECT version_num FROM alembic_version")
        finally:
            await conn.close()
        self.name = name
        return _url(self.server.user, name)

    async def drop(self) -> None:
        """Drop the process's database, if it has one."""
        if self.name is not None:
            name, self.name = self.name, None
            drop = f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'
            await _admin_execute(self.server.user, drop)

    async def _connect(self, name: str) -> asyncpg.Connection:
        return await asyncpg.connect(
            host=POSTGRES_HOST, port=POSTGRES_PORT, user=self.server.user, database=name
        )

    @staticmethod
    async def _tables(conn: asyncpg.Connection) -> list[str]:
        rows = await conn.fetch("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
        return [row[0] for row in rows]

    async def _emptied(self, name: str) -> bool:
        """Empty the database the last test used; False when it is not fit to reuse."""
        try:
            conn = await self._connect(name)
        except (OSError, asyncpg.PostgresError):
            return False
        try:
            # The last test's processes and pools may still hold sessions (and locks).
            await conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = $1 AND pid <> pg_backend_pid()",
                name,
            )
            if frozenset(await self._tables(conn)) != self.tables:
                return False
            if await conn.fetchval("SELECT version_num FROM alembic_version") != self.revision:
                return False
            sequences = await conn.fetch(
                "SELECT sequencename FROM pg_sequences WHERE schemaname = 'public'"
            )
            await conn.execute(
                "SET session_replication_role = replica;"  # no foreign-key order needed
                + "".join(f'DELETE FROM "{t}";' for t in self.tables if t != "alembic_version")
                + "".join(f"SELECT setval('\"{row[0]}\"', 1, false);" for row in sequences)
                + "SET session_replication_role = DEFAULT;"
            )
        except asyncpg.PostgresError:
            return False
        finally:
            await conn.close()
        return True


@pytest.fixture(scope="session")
def _postgres_reused(_postgres: _Postgres) -> Iterator[_Reused]:
    reused = _Reused(_postgres)
    try:
        yield reused
    finally:
        _run(reused.drop())


@pytest.fixture(scope="session")
def _sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("sqlite-template") / "clubtd.db"
    _run(upgrade(f"sqlite:///{path}"))
    return path


def _copy_template(template: Path, folder: Path) -> str:
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / "clubtd.db"
    for suffix in ("", "-wal"):
        if Path(f"{template}{suffix}").exists():
            shutil.copy(f"{template}{suffix}", f"{target}{suffix}")
    return f"sqlite:///{target}"


@pytest.fixture
def sqlite_url(_sqlite_template: Path, tmp_path: Path) -> str:
    """Return the URL of a fresh SQLite file database at the head revision."""
    return _copy_template(_sqlite_template, tmp_path)


@pytest.fixture
def sqlite_urls(_sqlite_template: Path, tmp_path: Path) -> Callable[[str], str]:
    """Return a function giving a fresh SQLite database at the head revision by name."""
    return lambda name: _copy_template(_sqlite_template, tmp_path / name)


@pytest.fixture(
    params=[
        pytest.param("sqlite", id="sqlite"),
        pytest.param("postgresql", id="postgresql", marks=pytest.mark.postgres),
    ]
)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """Yield the URL of a fresh database at the head revision."""
    if request.param == "sqlite":
        yield _copy_template(request.getfixturevalue("_sqlite_template"), tmp_path)
        return
    reused: _Reused = request.getfixturevalue("_postgres_reused")
    yield _run(reused.fresh())


@pytest_asyncio.fixture
async def engine(database_url: str) -> AsyncIterator[AsyncEngine]:
    """Yield an engine on the fresh database; disposed afterwards."""
    engine = make_engine(database_url)
    yield engine
    await engine.dispose()


@pytest.fixture
def uow_factory(engine: AsyncEngine) -> SqlUnitOfWorkFactory:
    """Return a factory of units of work on the fresh database."""
    return unit_of_work_factory(engine)


@pytest.fixture(scope="module")
def emulator() -> Iterator[emu.Emulator]:
    """Yield the Telegram Bot API emulator on a free port (one per test module); skip with
    the install hint when it is missing, unless CLUBTD_REQUIRE_EMULATOR=1 (CI)."""
    reason = emu.require_emulator()
    if reason is not None:
        pytest.skip(reason)
    with emu.running() as running:
        yield running
