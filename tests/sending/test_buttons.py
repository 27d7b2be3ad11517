"""Buttons that carry a token: found in the button_tokens table, and (for Discord, whose
first tokens were kept in the meta table) in the meta table, once, then from the table."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from bot.sending.buttons import ButtonStore, token_for
from storage.unit_of_work import unit_of_work_factory

PREFIX = "discord.button."
LONG = "/result match:12 score:3-1 tournament:" + "x" * 80


async def _old_token(engine: AsyncEngine) -> str:
    """Store a long command's token the way Discord did before the table: in meta."""
    token = token_for(LONG)
    async with unit_of_work_factory(engine)() as uow:
        await uow.meta.set(PREFIX + token, LONG)
        await uow.commit()
    return token


async def test_a_token_stored_in_meta_still_runs_its_command(engine: AsyncEngine) -> None:
    token = await _old_token(engine)
    store = ButtonStore(unit_of_work_factory(engine), limit=96, prefix=PREFIX, legacy_meta=True)
    assert await store.command_for(token) == LONG
    # Copied into the table: a store that reads only the table finds it from now on.
    async with unit_of_work_factory(engine)() as uow:
        assert await uow.buttons.get(PREFIX + token) == LONG
    fresh = ButtonStore(unit_of_work_factory(engine), limit=96, prefix=PREFIX)
    assert await fresh.command_for(token) == LONG


async def test_without_legacy_meta_only_the_table_counts(engine: AsyncEngine) -> None:
    token = await _old_token(engine)
    store = ButtonStore(unit_of_work_factory(engine), limit=96, prefix=PREFIX)
    assert await store.command_for(token) is None
    assert await store.command_for("#unknown") is None
