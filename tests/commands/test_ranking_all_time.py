"""The all-time ranking sums every official tournament (HGV-8); prizes are a season's."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from tests.commands.chat import Chat
from tests.commands.playing import play_to_the_end


async def test_the_all_time_ranking_has_no_prizes_column_HGV_8(engine: AsyncEngine) -> None:
    """Prizes need a season's attendance: the all-time table said "Prizes: no" for all,
    with the season's note under it."""
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora", "eva")
    chat.at("2026-01-31T20:05")
    await play_to_the_end(chat)
    season = await chat.say("ana", "/ranking")
    all_time = await chat.say("ana", "/ranking alltime")
    assert "Prizes" in season, season
    assert "all-time ranking" in all_time and "Prizes" not in all_time, all_time
    assert all_time.splitlines()[1].split()[-1] == "Played", all_time
