"""A director puts players in the novice category; their tournaments then count in the
novice ranking (HGV-NOVICE)."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from tests.commands.chat import Chat
from tests.commands.playing import play_to_the_end


async def test_a_novice_marked_before_the_night_is_ranked_as_a_novice_HGV_NOVICE(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await chat.say("ana", '/club name:"HG"')
    for player in ("bob", "cruz"):
        await chat.say(player, "/register")  # members before any tournament
    said = await chat.say("ana", "/player novice bob")
    novice = "bob plays in the novice category from now on"
    assert said == f"{novice}: /ranking novice counts their tournaments.", said
    refused = await chat.say("bob", "/player novice cruz")
    assert "directors" in refused.lower(), refused
    await chat.night("bob", "cruz", "dora", "eva")
    chat.at("2026-01-31T20:05")
    await play_to_the_end(chat)
    novices = await chat.say("ana", "/ranking novice")
    rows = [line.split()[1] for line in novices.splitlines() if line.strip()[:1].isdigit()]
    assert rows == ["bob"], novices
    season = await chat.say("ana", "/ranking")
    assert {"bob", "cruz", "dora", "eva"} <= set(season.split()), season


async def test_a_novice_taken_out_during_the_registration_leaves_the_novice_ranking(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await chat.say("ana", '/club name:"HG"')
    await chat.say("bob", "/register")
    await chat.say("ana", "/player novice bob")
    await chat.say(
        "ana",
        '/tournament new name:"January Cup" preset:hgv-backgammon start:"2026-01-31 20:00" '
        "approval:no",
    )
    await chat.say("bob", "/register")
    said = await chat.say("ana", "/player novice bob off")
    assert said.splitlines() == [
        "bob no longer plays in the novice category.",
        "That includes January Cup.",
    ]
    state = await chat.tournament()
    assert not state.entries[await chat.player_id("bob")].novice


async def test_a_novice_ranking_without_novices_says_how_to_have_some(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await chat.night("fay", "gus")
    chat.at("2026-01-31T20:05")
    await play_to_the_end(chat)
    nobody = await chat.say("ana", "/ranking novice")
    assert nobody == (
        "No novice has finished a backgammon tournament yet. A director puts a player in"
        " the novice category: /player novice alice"
    ), nobody


async def test_a_novice_marked_twice_is_told_so_HGV_NOVICE(engine: AsyncEngine) -> None:
    """The second /player novice said "plays in the novice category from now on" again."""
    chat = Chat(engine)
    await chat.say("ana", '/club name:"HG"')
    await chat.say("bob", "/register")
    await chat.say("ana", "/player novice bob")
    response = await chat.response("ana", "/player novice bob")
    assert response is not None and response.refused
    assert chat.text(response) == (
        "bob already plays in the novice category. To take them out: /player novice bob off"
    )
    await chat.say("ana", "/player novice bob off")
    said = await chat.say("ana", "/player novice bob off")
    assert said.startswith("bob does not play in the novice category"), said


async def test_a_player_asking_for_the_novice_category_is_told_a_director_gives_it_HGV_NOVICE(
    engine: AsyncEngine,
) -> None:
    """kuba typed `/register name:"Jakub Zieliński" nowicjusz:tak`: "/register has no option
    nowicjusz:; it takes name:, born:, claim:, tournament:" left him nowhere."""
    chat = Chat(engine)
    await chat.say("ana", '/tournament new name:"Cup" start:"2026-01-31 20:00" approval:no')
    for typed in ("nowicjusz:tak", "novato:sí", "începător:da", "novice:yes"):
        said = await chat.say("kuba", f'/register name:"Jakub Zieliński" {typed}')
        option = typed.split(":")[0]
        assert said == (
            f"/register has no option {option}: the novice category is given by a director,"
            " once: /player novice NAME (its table: /ranking novice)."
        ), said
    assert not (await chat.tournament()).entries  # nothing entered meanwhile


async def test_a_novice_is_refused_where_the_rules_have_no_novice_category_HGV_NOVICE(
    engine: AsyncEngine,
) -> None:
    """Kraków (warcaby-100): "Ewa plays in the novice category from now on", then
    /ranking novice: "this club has no novice category"."""
    chat = Chat(engine)
    await chat.night("bob", "cruz", preset="warcaby-100")
    said = await chat.say("ana", "/player novice bob")
    assert said == "This club has no novice category.", said
    assert "no novice category" in await chat.say("ana", "/ranking novice")
    card = await chat.say("ana", "/me bob")
    assert "novice" not in card, card
