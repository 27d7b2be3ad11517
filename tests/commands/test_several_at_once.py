"""A director names several players in one command, as on the night: each is done, and
one that cannot be is a line of the reply saying why, not a refusal of the others."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from tests.commands.chat import Chat

NEW_CUP = '/tournament new name:"January Cup" start:"2026-01-31 20:00" approval:no'


async def test_present_marks_several_and_says_who_could_not_be(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await chat.say("ana", NEW_CUP)
    for player in ("bob", "cruz", "dora"):
        await chat.say(player, "/register")
        await chat.say(player, "/confirm")
    await chat.say("eva", "/register")
    await chat.say("ana", '/player remove eva reason:"moved away"')
    chat.at("2026-01-31T19:30")
    await chat.say("bob", "/checkin")

    said = await chat.say("ana", "/present bob cruz dora eva")

    assert "bob is already checked in." in said, said
    assert "cruz is marked present." in said, said
    assert "dora is marked present." in said, said
    assert "eva" in said.splitlines()[-1], said  # her line says why, after the others
    state = await chat.tournament()
    present = {p for p, e in state.entries.items() if e.present_now()}
    assert present == {await chat.player_id(n) for n in ("bob", "cruz", "dora")}


async def test_present_of_one_still_refuses_as_before(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await chat.say("ana", NEW_CUP)
    await chat.say("bob", "/register")
    chat.at("2026-01-31T19:30")
    await chat.say("bob", "/checkin")
    response = await chat.response("ana", "/present bob")
    assert response is not None and response.refused
    assert chat.text(response) == "bob is already checked in."


async def test_addplayer_of_several_enters_the_others_beside_one_suspended(
    engine: AsyncEngine,
) -> None:
    """`/addplayer "Rosa Núñez" luis Pedro`, luis suspended from the cup: Rosa and Pedro
    are entered, luis's line says to lift the suspension first (it was all or nothing,
    and said only luis's refusal)."""
    chat = Chat(engine)
    await chat.say("ana", '/club name:"HG"')
    await chat.say("luis", "/register")  # a member of the club, no tournament yet
    await chat.say("ana", '/sanction luis reason:"left without a word"')
    await chat.say("ana", NEW_CUP)
    await chat.say("ana", '/addplayer "Rosa Núñez"')

    said = await chat.say("ana", '/addplayer "Rosa Núñez" luis "Pedro"')

    assert "Rosa Núñez is already entered in January Cup (confirmed)." in said, said
    assert "luis is suspended from January Cup" in said, said
    assert "Pedro is entered in January Cup (confirmed)." in said, said
    state = await chat.tournament()
    entered = {await chat.player_id(n) for n in ("Rosa Núñez", "Pedro")}
    assert set(state.entries) == entered


async def test_addplayer_of_one_suspended_is_refused_and_changes_nothing(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await chat.say("ana", '/club name:"HG"')
    await chat.say("luis", "/register")
    await chat.say("ana", '/sanction luis reason:"left without a word"')
    await chat.say("ana", NEW_CUP)
    response = await chat.response("ana", "/addplayer luis")
    assert response is not None and response.refused
    assert not (await chat.tournament()).entries


async def test_addplayer_a_month_later_enters_next_month_not_a_night_left_open(
    engine: AsyncEngine,
) -> None:
    """January's Last Chance final was never reported, so January stays in play; on
    3 February the director's /addplayer went to January ("it has results already").
    A night left open takes nobody: the entry is February's."""
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora")
    chat.at("2026-01-31T20:30")
    match, _white, _black = await chat.first_match("bob", "cruz", "dora")
    await chat.say("ana", f"/result {match.number} 3-1")
    chat.at("2026-02-03T10:00")
    await chat.say(
        "ana", '/tournament new name:"February Cup" start:"2026-02-28 20:00" approval:no'
    )

    said = await chat.say("ana", '/addplayer "Rosa Núñez"')

    assert said == "Rosa Núñez is entered in February Cup (confirmed).", said


async def test_present_of_a_suspended_player_names_the_suspension_not_addplayer_HGV_2_3_6(
    engine: AsyncEngine,
) -> None:
    """A director typing /present for a member suspended from tonight's cup was told to
    /addplayer him, which only met the suspension: the reply now names it."""
    chat = Chat(engine)
    await chat.say("ana", '/club name:"HG"')
    await chat.say("luis", "/register")
    await chat.say("ana", '/sanction luis reason:"left without a word"')
    await chat.say("ana", NEW_CUP)
    await chat.say("ana", '/addplayer "Rosa Núñez"')
    response = await chat.response("ana", "/present luis")
    assert response is not None and response.refused
    said = chat.text(response)
    assert said.startswith("luis is suspended from January Cup: /lift luis"), said
    assert "/addplayer" not in said, said
    both = await chat.say("ana", '/present "Rosa Núñez" luis')
    assert "luis is suspended from January Cup" in both and "Rosa Núñez" in both, both


async def test_a_player_removed_twice_is_named_with_the_way_back(engine: AsyncEngine) -> None:
    """The second /player remove said "That player is not entered": it is the same
    player, out already, and /reinstate brings them back."""
    chat = Chat(engine)
    await chat.say("ana", '/club name:"HG"')
    await chat.say("luis", "/register")  # a member, no tournament yet
    await chat.say("ana", NEW_CUP)
    await chat.say("ana", '/addplayer "El Mamut" Pedro')
    await chat.say("ana", '/player remove "el mamut"')
    response = await chat.response("ana", '/player remove "el mamut"')
    assert response is not None and response.refused
    assert chat.text(response) == (
        'El Mamut is already out of January Cup. To bring them back: /reinstate "El Mamut" '
        'reason:"..."'
    ), chat.text(response)
    said = await chat.say("ana", "/player remove luis")
    assert said == "luis is not entered in January Cup: /status shows who is.", said


async def test_reinstating_a_player_who_plays_names_them(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await chat.say("ana", '/club name:"HG"')
    await chat.say("ana", NEW_CUP)
    await chat.say("ana", "/addplayer Pedro")
    said = await chat.say("ana", '/reinstate pedro reason:"by mistake"')
    assert said == "Pedro is playing in January Cup: there is nothing to reinstate.", said
