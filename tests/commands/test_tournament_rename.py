"""/tournament rename: a name typed wrong at its creation is put right, entries kept; not
to a name it has, nor to that of another tournament not over."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from tests.commands.chat import Chat

MARCH = '/tournament new name:"{name}" start:"2026-03-14 20:00" approval:no'


async def test_a_tournament_typed_wrong_is_renamed_with_its_entries(engine: AsyncEngine) -> None:
    """Valencia opened "Copa de Junoi"; cancelling it would have ended the entries made."""
    chat = Chat(engine)
    await chat.say("ana", MARCH.format(name="Marhc Cup"))
    await chat.say("bob", "/register")
    said = await chat.say("ana", '/tournament rename "Marhc Cup" to:"March Cup"')
    assert said == "Marhc Cup is now called March Cup.", said
    state = await chat.tournament()
    assert state.name == "March Cup" and await chat.player_id("bob") in state.entries
    assert "March Cup" in await chat.say("bob", "/me")
    log = await chat.say("ana", "/log")
    assert '/tournament rename "Marhc Cup" to:"March Cup"' in log, log


async def test_a_rename_to_the_same_or_a_taken_name_is_refused(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await chat.say("ana", MARCH.format(name="March Cup"))
    await chat.say("ana", '/tournament new name:"April Cup" start:"2026-04-11 20:00" approval:no')
    same = await chat.say("ana", '/tournament rename "March Cup" to:"March Cup"')
    assert same == "The tournament is already called March Cup.", same
    taken = await chat.say("ana", '/tournament rename "March Cup" to:"april cup"')
    assert taken == "A tournament called april cup already exists: choose another name.", taken
    listed = await chat.say("ana", "/tournament list")
    assert "March Cup:" in listed and "April Cup:" in listed and "april cup" not in listed
    refused = await chat.say("bob", '/tournament rename "March Cup" to:"X"')
    assert "director" in refused, refused


async def test_a_button_posted_before_the_rename_still_finds_the_tournament(
    engine: AsyncEngine,
) -> None:
    """Bob's confirm button, posted while the cup was "Marhc Cup", carries that name."""
    chat = Chat(engine)
    await chat.say("ana", MARCH.format(name="Marhc Cup"))
    await chat.say("bob", "/register")
    await chat.say("ana", '/tournament rename "Marhc Cup" to:"Marh Cup"')
    await chat.say("ana", '/tournament rename "Marh Cup" to:"March Cup"')
    said = await chat.say("bob", '/confirm tournament:"Marhc Cup"')
    assert "March Cup" in said and "confirm" in said.lower(), said
    entry = (await chat.tournament()).entries[await chat.player_id("bob")]
    assert entry.confirmed_at is not None
    # A tournament called by a former name now is the one meant by it.
    await chat.say("ana", '/tournament new name:"Marhc Cup" start:"2026-03-21 20:00" approval:no')
    said = await chat.say("ana", '/status tournament:"Marhc Cup"')
    assert said.startswith("Marhc Cup"), said
