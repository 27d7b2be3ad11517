"""A report is echoed as its reporter typed it, their side first (issue 20, item 8)."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from tests.commands.chat import Chat


async def test_black_reporting_3_1_reads_their_name_first(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora")
    chat.at("2026-01-31T20:05")
    state = await chat.tournament()
    match = min(state.matches.values(), key=lambda m: m.number)
    names = {await chat.player_id(n): n for n in ("bob", "cruz", "dora")}
    assert match.white is not None and match.black is not None
    white, black = names[match.white], names[match.black]
    reply = await chat.say(black, f"/report {match.length}-1")
    assert f"{black} {match.length}-1 {white} recorded" in reply, reply


async def test_disputing_twice_says_the_match_is_disputed(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora")
    chat.at("2026-01-31T20:05")
    state = await chat.tournament()
    match = min(state.matches.values(), key=lambda m: m.number)
    names = {await chat.player_id(n): n for n in ("bob", "cruz", "dora")}
    assert match.white is not None and match.black is not None
    white, black = names[match.white], names[match.black]
    await chat.say(white, f"/report {match.length}-1")
    first = await chat.say(black, "/dispute")
    again = await chat.say(black, "/dispute")
    assert "disputed" in first and "disputed" in again, again
    assert "no" not in again.split(":")[0].lower(), again
