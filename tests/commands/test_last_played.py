"""Right after a final the director opens next month's tournament: /standings and
/bracket, naming none, still show the night just played (below a line saying the next
one has nothing yet); naming a tournament shows that one only."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from tests.commands.chat import Chat
from tests.commands.playing import play_to_the_end

PLAYERS = ("bob", "cruz", "dora", "emil")
FEBRUARY = '/tournament new name:"February Cup" start:"2026-02-28 20:00" approval:no'


async def test_a_look_up_after_the_final_shows_the_night_just_played(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await chat.night(*PLAYERS)
    chat.at("2026-01-31T20:05")
    await play_to_the_end(chat)
    await chat.say("ana", FEBRUARY)
    standings = await chat.say("bob", "/standings")
    assert "February Cup: the groups have not been drawn yet" in standings, standings
    assert "The last one played, January Cup" in standings and "Group" in standings
    bracket = await chat.say("bob", "/bracket")
    assert "February Cup: the knockout has not started yet" in bracket, bracket
    assert "The last one played, January Cup" in bracket and "Final" in bracket
    named = await chat.say("bob", '/standings tournament:"February Cup"')
    assert "The last one played" not in named and "not been drawn" in named, named


async def test_with_nothing_played_before_the_answer_says_only_that(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await chat.say("ana", FEBRUARY)
    standings = await chat.say("bob", "/standings")
    assert "not been drawn" in standings and "last one played" not in standings, standings
