"""Eight players report at once: no update is lost, nobody sees "database is locked"."""

from __future__ import annotations

import asyncio

from sqlalchemy.ext.asyncio import AsyncEngine

from tests.commands.chat import Chat
from tournament.model import MatchStatus

PLAYERS = tuple(f"p{i:02}" for i in range(1, 25))


async def test_eight_concurrent_reporters_lose_no_update(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await chat.night(*PLAYERS)
    chat.at("2026-01-31T20:05")
    state = await chat.tournament()
    ids = {await chat.player_id(name): name for name in PLAYERS}
    first_round = sorted(
        (m for m in state.matches.values() if m.round == 1), key=lambda m: m.number
    )[:8]
    assert len(first_round) == 8
    reporters = [ids[m.white] for m in first_round if m.white is not None]
    replies = await asyncio.gather(
        *(chat.response(name, "/report 3-1", update_id=f"r-{name}") for name in reporters)
    )
    assert all(r is not None and not r.refused for r in replies)
    after = await chat.tournament()
    assert all(after.matches[m.number].status is MatchStatus.PENDING for m in first_round)
    assert {
        after.matches[m.number].report.by
        for m in first_round  # type: ignore[union-attr]
    } == {m.white for m in first_round}
