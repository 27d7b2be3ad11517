"""A friendly (official:no) earns no ranking points (HGV-8): its opening, its rules and
its final places say so, rather than showing points that never count."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from tests.commands.chat import Chat
from tests.commands.playing import play_to_the_end

PLAYERS = ("bob", "cruz", "dora", "emil")


async def test_a_friendly_says_it_earns_no_ranking_points_HGV_8(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    opened = await chat.say(
        "ana",
        '/tournament new name:"Spring Friendly" start:"2026-01-31 20:00" official:no approval:no',
    )
    assert "a friendly (no ranking points)" in opened, opened
    for name in PLAYERS:
        await chat.say(name, "/register")
    rules = await chat.say("bob", "/rules")
    assert "A friendly: it does not count for the season ranking" in rules, rules
    assert "Ranking points by place" not in rules and "taking part" not in rules, rules


async def test_a_friendlys_final_places_carry_no_points_column_HGV_8(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await chat.night(*PLAYERS, extra="official:no")
    chat.at("2026-01-31T20:05")
    await play_to_the_end(chat)
    shown = await chat.say("bob", "/bracket")
    assert "January Cup: final places (a friendly: no ranking points)" in shown, shown
    table = shown.split("final places (a friendly: no ranking points)")[1]
    assert "Points" not in table and "0.10" not in table, table
    assert "No backgammon ranking yet" in await chat.say("bob", "/ranking")
