"""A command's audit entries go in with one statement, in the order given (issue 17)."""

from __future__ import annotations

from sqlalchemy import event, select
from sqlalchemy.ext.asyncio import AsyncEngine

from storage import tables as t
from tests.storage.conftest import NOW, UowFactory, club_with_players


async def test_audit_entries_are_one_statement_in_order(
    engine: AsyncEngine, uow_factory: UowFactory
) -> None:
    club_id = await club_with_players(uow_factory, 0)
    inserts: list[str] = []

    def seen(_conn: object, _cursor: object, statement: str, *_args: object) -> None:
        if statement.startswith("INSERT INTO audit_log"):
            inserts.append(statement)

    entry = {"club_id": club_id, "tournament_id": None, "actor": "ana", "at": NOW}
    event.listen(engine.sync_engine, "before_cursor_execute", seen)
    async with uow_factory() as uow:
        await uow.audit.add_many(
            [
                {**entry, "action": "first", "detail": {"n": 1}},
                {**entry, "action": "second", "detail": {}},
            ]
        )
        await uow.audit.add_many([])
        await uow.commit()
    event.remove(engine.sync_engine, "before_cursor_execute", seen)
    async with engine.connect() as conn:
        query = select(t.audit_log.c.action, t.audit_log.c.detail).order_by(t.audit_log.c.id)
        rows = [tuple(r) for r in await conn.execute(query)]
    assert rows == [("first", {"n": 1}), ("second", {})]
    assert len(inserts) == 1
