"""A night nobody came to ends with a sentence that says so (issue 15.18)."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from tests.commands.chat import Chat
from tournament.model import TournamentStatus


async def test_a_night_where_nobody_came_says_so_instead_of_champion_unknown_CLUB_NO_SHOW(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora", "eva", check_in=())
    await chat.wait(180)
    state = await chat.tournament()
    assert state.status is TournamentStatus.FINISHED
    club = [text for to, text in chat.posted if to == "club"]
    over = [text for text in club if text.startswith("January Cup is over")]
    assert len(over) == 1, club
    assert "Champion" not in over[0] and "?" not in over[0]
    assert "nobody played" in over[0] and "no champion" in over[0]
    assert "Place" not in over[0]  # no empty placements table
