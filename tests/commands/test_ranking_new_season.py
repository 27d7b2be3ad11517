"""/ranking in January: the new season is empty, last season's table is not lost (HGV-8)."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from tests.commands.chat import Chat
from tests.commands.playing import play_to_the_end


async def _december_played(chat: Chat) -> None:
    await chat.night("bob", "cruz", "dora", start="2026-12-19 20:00")
    chat.at("2026-12-19T20:05")
    await play_to_the_end(chat)


async def test_a_new_seasons_ranking_shows_how_the_last_one_ended_HGV_8(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await _december_played(chat)
    december = await chat.say("bob", "/ranking")
    assert "season ranking" in december and "final" not in december, december
    chat.at("2027-01-05T18:00")
    january = await chat.say("bob", "/ranking")
    assert january.startswith("The 2027 season has no finished tournament yet"), january
    assert "This is how the 2026 season ended." in january, january
    assert "season ranking, final" in january and "2026" in january, january
    assert all(name in january for name in ("bob", "cruz", "dora")), january


async def test_a_club_without_any_ranked_season_still_hears_there_is_none_HGV_8(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora", start="2026-12-19 20:00")
    reply = await chat.say("bob", "/ranking")
    assert reply.startswith("No backgammon ranking yet"), reply
