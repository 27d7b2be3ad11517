"""A player entered in two tournaments taking entries (the morning's and the evening's)
hears, on confirming the first, that the other waits for a confirmation too."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from tests.commands.chat import Chat


async def open_morning_and_evening(chat: Chat) -> None:
    for name, start in (("Morning", "2026-01-31 10:00"), ("Evening", "2026-01-31 18:00")):
        await chat.say("ana", f'/tournament new name:"{name}" start:"{start}" approval:no')


async def test_confirming_one_of_two_entries_offers_the_other(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await open_morning_and_evening(chat)
    await chat.say("ion", "/register")
    await chat.say("ion", '/register tournament:"Evening"')

    response = await chat.response("ion", "/confirm")

    assert response is not None and not response.refused
    said = chat.text(response)
    assert said.splitlines()[1] == (
        "You are entered in Evening (Sat, Jan 31, 18:00) as well: to confirm that one too,"
        " /confirm tournament:Evening"
    ), said
    (button,) = response.reply.buttons  # pressed by ion only (for:ion)
    assert button.command.startswith("/confirm tournament:Evening "), button
    evening = await chat.say("ion", '/confirm tournament:"Evening"')
    assert evening == "Thank you, ion: your place in Evening (Sat, Jan 31, 18:00) is confirmed."


async def test_one_entry_confirmed_says_nothing_more(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await open_morning_and_evening(chat)
    await chat.say("ion", "/register")
    assert "as well" not in await chat.say("ion", "/confirm")
