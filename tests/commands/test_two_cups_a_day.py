"""Two cups on one day (the morning's and the evening's): a player entered in both hears,
on confirming the first, that the other waits too; a /checkin, or a director's /present
or /draw, means the one whose check-in is open."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from tests.commands.chat import Chat


async def open_morning_and_evening(chat: Chat) -> None:
    for name, start in (("Morning", "2026-01-31 10:00"), ("Evening", "2026-01-31 18:00")):
        await chat.say("ana", f'/tournament new name:"{name}" start:"{start}" approval:no')


async def ion_in_both(chat: Chat) -> None:
    """Open both cups and enter ion in each."""
    await open_morning_and_evening(chat)
    await chat.say("ion", "/register")
    await chat.say("ion", '/register tournament:"Evening"')


async def test_confirming_one_of_two_entries_offers_the_other(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await ion_in_both(chat)

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


async def test_next_months_entry_waits_for_its_own_reminder(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await open_morning_and_evening(chat)
    await chat.say("ana", '/tournament new name:"February" start:"2026-02-28 20:00" approval:no')
    await chat.say("ion", "/register")
    await chat.say("ion", '/register tournament:"February"')
    assert await chat.say("ion", "/confirm") == (
        "Thank you, ion: your place in Morning (Sat, Jan 31, 10:00) is confirmed."
    )


async def test_a_checkin_on_the_day_is_for_the_cup_whose_check_in_is_open(
    engine: AsyncEngine,
) -> None:
    """ion entered both cups of the day; his /checkin at 9:30 asked "which tournament?",
    though only the morning's check-in (from 9:00) was open."""
    chat = Chat(engine)
    await ion_in_both(chat)
    chat.at("2026-01-31T09:30")

    said = await chat.say("ion", "/checkin")

    assert said == "ion is checked in. Good luck!", said


async def test_a_directors_command_on_the_day_is_for_the_cup_whose_check_in_is_open(
    engine: AsyncEngine,
) -> None:
    """Navodari's director, at 9:30 on a day of a morning and an evening cup, was asked
    "which tournament?" for /present and /draw, though only the morning's check-in was
    open; before any check-in opens the question stands."""
    chat = Chat(engine)
    await open_morning_and_evening(chat)
    for player in ("ion", "eva", "bob"):
        await chat.say(player, "/register")
    chat.at("2026-01-31T08:30")
    assert (await chat.say("ana", "/present ion")).startswith("Which tournament?")

    chat.at("2026-01-31T09:30")
    assert await chat.say("ana", "/present ion eva bob") == (
        "ion is marked present.\neva is marked present.\nbob is marked present."
    )
    drawn = await chat.say("ana", "/draw")
    assert drawn.startswith("Draw made.") and "Morning: matches" in drawn, drawn
    listed = await chat.say("ana", "/tournament list")
    assert "Evening: Sat, Jan 31, 18:00, open for entries" in listed, listed


async def test_the_other_cup_confirmed_already_is_not_offered(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await ion_in_both(chat)
    await chat.say("ion", '/confirm tournament:"Evening"')
    assert "as well" not in await chat.say("ion", "/confirm")


async def test_a_player_of_the_evening_cup_named_while_the_morning_plays_on_says_which(
    engine: AsyncEngine,
) -> None:
    """At 17:30 the morning cup was still being played; the director's `/present eve`, eve
    being in the evening cup only, said "eve is not entered in Morning: /addplayer eve"."""
    chat = Chat(engine)
    await open_morning_and_evening(chat)
    for player in ("bob", "cruz", "dora"):
        await chat.say(player, "/register")
    await chat.say("eve", '/register tournament:"Evening"')
    chat.at("2026-01-31T09:30")
    await chat.say("ana", "/present bob cruz dora")
    await chat.say("ana", "/draw")
    chat.at("2026-01-31T17:30")

    said = await chat.say("ana", "/present eve")

    assert said == (
        "eve is not entered in Morning, but in Evening: add tournament:Evening to the command."
    ), said
    assert await chat.say("ana", "/present eve tournament:Evening") == "eve is marked present."
