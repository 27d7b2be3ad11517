"""A member who typed their name in small letters fixes it by registering again with
capitals; any other name stays the director's to change (/player rename)."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from tests.commands.chat import Chat

CUP = '/tournament new name:"January Cup" start:"2026-01-31 20:00" approval:no'


async def names(chat: Chat) -> list[str]:
    async with chat.uow_factory() as uow:
        club = await uow.clubs.for_chat("console", "club")
        assert club is not None
        return sorted(p.name for p in await uow.players.all(club.id))


async def test_the_same_name_with_capitals_is_taken_as_the_way_to_show_it(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await chat.say("ana", CUP)
    await chat.say("mihai", '/register name:"mihai  ionescu"')
    reply = await chat.say("mihai", '/register name:"Mihai Ionescu"')
    assert "mihai ionescu is now called Mihai Ionescu" in reply, reply
    assert "already" not in reply
    assert await names(chat) == ["Mihai Ionescu"]
    again = await chat.say("mihai", '/register name:"Mihai Ionescu"')
    assert "already" in again, again


async def test_another_name_is_not_a_rename(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await chat.say("ana", CUP)
    await chat.say("mihai", '/register name:"mihai ionescu"')
    reply = await chat.say("mihai", '/register name:"Mihail Ionescu"')
    assert "now called" not in reply, reply
    # Not silently "already entered": who they are, and who changes the name.
    assert reply == (
        "You are in the club as mihai ionescu; a director changes the name shown:"
        ' /player rename "mihai ionescu" to:"Mihail Ionescu"'
    ), reply
    accented = await chat.say("mihai", '/register name:"Mihăi Ionescu"')
    assert "now called" not in accented, accented
    assert await names(chat) == ["mihai ionescu"]


async def test_another_members_name_points_to_the_merge(engine: AsyncEngine) -> None:
    """ "rocip" registered by her handle, then typed the name the director had entered
    her under: a director joins the two (her results and points are that member's). (A
    handle that is her first name, "rocio", is asked about Rocío Pérez at once.)"""
    chat = Chat(engine)
    await chat.say("ana", CUP)
    await chat.say("ana", '/addplayer "Rocío Pérez"')
    await chat.say("rocip", "/register")
    reply = await chat.say("rocip", '/register name:"Rocio Perez"')
    assert reply == (
        "You are in the club as rocip; Rocío Pérez is another member on the club list."
        ' If that is you, a director joins the two: /player merge "rocip" into:"Rocío Pérez"'
    ), reply
    merged = await chat.say("ana", '/player merge "rocip" into:"Rocío Pérez"')
    # Both entered before the draw: one person entered twice, one entry now.
    assert merged.startswith("rocip is merged into Rocío Pérez"), merged
    assert await names(chat) == ["Rocío Pérez"]
    state = await chat.tournament()
    assert list(state.entries) == [await chat.player_id("Rocío Pérez")]
    assert "Rocío Pérez" in await chat.say("rocip", "/me", dm=True)  # her chat account


async def test_a_member_entering_a_new_tournament_is_told_both(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await chat.say("ana", '/club name:"Club"')
    await chat.say("mihai", '/register name:"mihai ionescu"')  # the club only: no tournament
    club_only = await chat.say("mihai", '/register name:"Mihai ionescu"')
    assert "now called Mihai ionescu" in club_only and "no tournament of Club" in club_only, (
        club_only
    )
    await chat.say("ana", CUP)
    reply = await chat.say("mihai", '/register name:"Mihai Ionescu"')
    assert "now called Mihai Ionescu" in reply and "January Cup" in reply, reply


async def test_a_birth_date_given_after_entering_is_kept_NAV_PRIZE(engine: AsyncEngine) -> None:
    """bob entered without a date, then sent /register born:1950-03-02 for the veteran
    prize: "you are entered already" rolled the date back with the refusal."""
    from datetime import date

    chat = Chat(engine)
    await chat.say("ana", CUP)
    await chat.say("bob", "/register")
    said = await chat.say("bob", "/register born:1950-03-02")
    assert "your birth date is saved" in said, said
    state = await chat.tournament()
    bob = await chat.player_id("bob")
    assert state.entries[bob].born == date(1950, 3, 2)
    assert "already" in await chat.say("bob", "/register born:1950-03-02")


async def test_a_newcomer_a_letter_from_a_member_hears_of_the_member(engine: AsyncEngine) -> None:
    """Jan registered as "Jan Kowalsky" beside "Jan Kowalski", whom the director had
    entered: a second player, silently, whose points would be apart from the member's.
    The entry is made (a namesake may be new), with the merge a director sends if it is
    the same person."""
    chat = Chat(engine)
    await chat.say("ana", CUP)
    await chat.say("ana", '/addplayer "Jan Kowalski"')
    reply = await chat.say("jan", '/register name:"Jan Kowalsky"')
    assert reply.startswith(
        "You are in the club as Jan Kowalsky; Jan Kowalski is another member on the club"
        ' list. If that is you, a director joins the two: /player merge "Jan Kowalsky"'
        ' into:"Jan Kowalski"\n'
    ), reply
    assert "Jan Kowalsky, you are entered in January Cup" in reply, reply
    assert "Jan Kowalski" not in await chat.say("eva", '/register name:"Eva Nowak"')
