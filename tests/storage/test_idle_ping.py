"""PostgreSQL: a pooled connection idle for a while is pinged before use and replaced
if the server dropped it; one given back moments ago is used without a round trip."""

from __future__ import annotations

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from storage import engine as engines


async def _backend(engine: AsyncEngine) -> int:
    async with engine.connect() as conn:
        pid: int = (await conn.execute(text("select pg_backend_pid()"))).scalar_one()
    return pid


def _pings(engine: AsyncEngine, monkeypatch: pytest.MonkeyPatch) -> list[object]:
    seen: list[object] = []
    ping = engine.dialect.do_ping

    def counted(dbapi_connection: object) -> bool:
        seen.append(dbapi_connection)
        return ping(dbapi_connection)

    monkeypatch.setattr(engine.dialect, "do_ping", counted)
    return seen


# PostgreSQL only: SQLite has no server to drop a connection, nothing to ping.
only_postgresql = pytest.mark.parametrize(
    "database_url", [pytest.param("postgresql", marks=pytest.mark.postgres)], indirect=True
)


@only_postgresql
async def test_a_connection_dropped_while_idle_is_replaced(
    engine: AsyncEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = await _backend(engine)
    admin = engines.make_engine(engine.url.render_as_string(hide_password=False))
    async with admin.connect() as other:
        await other.execute(text("select pg_terminate_backend(:pid)"), {"pid": first})
    await admin.dispose()
    monkeypatch.setattr(engines, "IDLE_PING_AFTER", 0.0)  # as if idle for long
    assert await _backend(engine) != first


@only_postgresql
async def test_a_connection_just_given_back_is_not_pinged(
    engine: AsyncEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    await _backend(engine)  # a new connection is pinged once
    pings = _pings(engine, monkeypatch)
    for _ in range(3):
        await _backend(engine)
    assert pings == []
    monkeypatch.setattr(engines, "IDLE_PING_AFTER", 0.0)
    await _backend(engine)
    assert len(pings) == 1
