"""A director who forgot /present for a player at the table, and saw a lateness point
given, hears on marking them present what stands against them and the /cancel that
undoes it (CLUB-PRESENCE, HGV-2.3.1)."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from tests.commands.chat import Chat


async def test_present_after_a_lateness_point_names_the_cancel_HGV_2_3_1(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await chat.night("bob", "cruz", added=("José Núñez",))  # never marked present
    jose = await chat.player_id("José Núñez")
    state = await chat.tournament()
    first = min((m for m in state.matches.values() if jose in m.players), key=lambda m: m.number)
    assert first.start is not None
    late = (first.start - chat.now).total_seconds() / 60 + 12
    await chat.wait(int(late))  # one 10-minute step given

    said = await chat.say("ana", "/present jose")

    assert said.splitlines() == [
        "José Núñez is marked present.",
        f"1 lateness point stands against José Núñez in match {first.number}. If José Núñez"
        f' was here all along: /cancel {first.number} reason:"..."',
    ], said
    # Back at once, before any lateness point: nothing more is said.
    await chat.say("ana", "/away bob")
    assert await chat.say("ana", "/present bob") == "bob is marked present."


async def test_present_everyone_offers_the_line_of_those_not_marked_yet_HGV_2_3_1(
    engine: AsyncEngine,
) -> None:
    """Gdańsk's director typed /present wszyscy ("everyone") and read "nobody here is
    called wszyscy". Marking all would stop the lateness of whoever is not here: the
    reply offers the line of those not marked yet, and marks nobody."""
    chat = Chat(engine)
    await chat.night("bob", "cruz", added=("José Núñez", "Zofia Ślęzak"))
    for typed in ("/present wszyscy", "/present all", "/present todos"):
        said = await chat.say("ana", typed)
        assert said.endswith('Not marked yet: /present "José Núñez" "Zofia Ślęzak"'), said
    here = {await chat.player_id("bob"), await chat.player_id("cruz")}
    state = await chat.tournament()
    assert {p for p, e in state.entries.items() if e.present_now()} == here
    await chat.say("ana", '/present "José Núñez" zofia')
    said = await chat.say("ana", "/present all")
    assert said == "Everyone entered in January Cup is marked present already.", said


async def test_present_everyone_before_anyone_entered_says_how_to_enter(
    engine: AsyncEngine,
) -> None:
    """Constanța's director typed /present toți before entering anyone and read that
    everyone was marked present already."""
    chat = Chat(engine)
    await chat.say("ana", "/club")
    await chat.say("ana", '/tournament new name:"January Cup" start:"2026-01-31 20:00"')
    said = await chat.say("ana", "/present all")
    assert said == (
        "Nobody is entered in January Cup yet: to enter a member and mark them here, "
        "/addplayer NAME and then /present NAME."
    ), said
