"""A member who sends /register when nothing is open hears that, not that they have just
joined the club."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from tests.commands.chat import Chat


async def test_a_members_register_with_nothing_open_says_so(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await chat.say("ana", "/club")  # the chat becomes a club
    joined = await chat.say("bob", "/register")
    assert joined == "bob, you are now a player of Club. No tournament is open for entries yet."

    again = await chat.say("bob", "/register")

    assert again == "bob, no tournament of Club is open for entries yet.", again
