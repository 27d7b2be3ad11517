"""The director's /status says when each reported result stands by itself, and that a
player entered without a chat account cannot answer one."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from tests.commands.chat import Chat
from tournament.model import Stage


async def test_a_pending_result_says_when_it_stands_and_who_cannot_answer(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora", added=("José Núñez",))
    await chat.say("ana", '/present "jose nunez"')
    state = await chat.tournament()
    jose = await chat.player_id("José Núñez")
    first_round = [m for m in state.matches.values() if m.stage is Stage.GROUP and m.round == 1]
    (with_jose,) = [m for m in first_round if jose in m.players]
    (without,) = [m for m in first_round if jose not in m.players]
    names = {await chat.player_id(n): n for n in ("bob", "cruz", "dora")}
    chat.at("2026-01-31T20:30")
    await chat.say(names[with_jose.opponent_of(jose)], f"/report 3-1 match:{with_jose.number}")
    await chat.say(names[without.players[0]], f"/report 3-2 match:{without.number}")

    said = await chat.say("ana", "/status")

    lines = said.splitlines()
    first = lines.index(next(line for line in lines if line.startswith("Awaiting the opponent")))
    assert "(2)" in lines[first], said
    by_number = {
        int(line.split()[1].rstrip(":")): i
        for i, line in enumerate(lines)
        if line.startswith("Match ") and "awaiting the opponent" in line
    }
    assert lines[by_number[with_jose.number] + 1] == (
        "José Núñez has no chat account to answer: it stands by itself at 20:45."
    ), said
    assert lines[by_number[without.number] + 1] == "It stands by itself at 20:45.", said
