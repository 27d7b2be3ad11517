"""A director's /forfeit of a player with no open match says so of that player
(HGV-2.3.5), not "you have no match to report"; nothing changes."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from tests.commands.chat import Chat

PLAYERS = ("bob", "cruz", "dora", "emil")


async def test_forfeiting_a_player_whose_matches_are_all_decided_names_them_HGV_2_3_5(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await chat.night(*PLAYERS)
    _, white, _ = await chat.first_match(*PLAYERS)
    chat.at("2026-01-31T20:05")
    assert "reason" in await chat.say("ana", f"/forfeit {white} all")
    left = await chat.say("ana", f'/forfeit {white} all reason:"went home"')
    # The club hears the departure and the suspension it carries, not a bare forfeit.
    assert left == (
        f"{white} has left: every remaining match is lost by forfeit, and {white} is"
        " suspended from the next tournament."
    ), left
    before = await chat.tournament()
    reply = await chat.say("ana", f'/forfeit {white} reason:"again"')
    assert f"{white} has no open match in " in reply, reply
    assert "You have no match" not in reply, reply
    after = await chat.tournament()
    assert {n: m.status for n, m in after.matches.items()} == {
        n: m.status for n, m in before.matches.items()
    }


async def test_a_match_given_away_by_a_player_at_the_venue_says_how_to_record_leaving_HGV_2_3_5(
    engine: AsyncEngine,
) -> None:
    """carmen left the venue in the middle of the night; the director typed `/forfeit carmen
    reason:"se fue sin avisar"`: her match was given away, but nothing said that leaving
    is `all`, which also suspends her from the next tournament, and she was not."""
    chat = Chat(engine)
    await chat.night(*PLAYERS, check_in=("bob", "cruz", "dora"))
    _, white, black = await chat.first_match(*PLAYERS)
    chat.at("2026-01-31T20:05")
    present = white if white != "emil" else black
    said = await chat.say("ana", f'/forfeit {present} reason:"went home"')
    assert said == (
        f"Forfeit recorded for {present}.\n"
        f'If {present} has left the tournament: /forfeit {present} all reason:"..." loses'
        " every remaining match and suspends them from the next tournament."
    ), said
    # One not at the venue is late or a no-show: lateness and no-shows are their own rules.
    said = await chat.say("ana", '/forfeit emil reason:"not here"')
    assert said == "Forfeit recorded for emil.", said


async def test_a_forfeit_typed_as_a_result_names_the_forfeit_command_HGV_2_3_5(
    engine: AsyncEngine,
) -> None:
    """Gdańsk's director typed `/result 4 walkower` and read "Nobody here is called
    walkower": the reply gives /forfeit for either player of match 4; nothing changes."""
    chat = Chat(engine)
    await chat.night(*PLAYERS)
    match, white, black = await chat.first_match(*PLAYERS)
    number = match.number
    chat.at("2026-01-31T20:05")
    before = await chat.tournament()
    for word in ("walkower", "forfait", "Forfeit"):
        reply = await chat.say("ana", f"/result {number} {word}")
        assert reply == (
            f"Match {number} by forfeit: name who did not play,"
            f' /forfeit {white} match:{number} reason:"..."'
            f' or /forfeit {black} match:{number} reason:"..."'
        ), reply
    reply = await chat.say("ana", "/result walkover")
    assert reply == 'A forfeit is not a score: name who did not play, /forfeit NAME reason:"..."'
    after = await chat.tournament()
    assert after.matches[number].status is before.matches[number].status


async def test_a_forfeit_of_a_match_played_says_to_reopen_it_first_HGV_2_3_5(
    engine: AsyncEngine,
) -> None:
    """`/forfeit cruz match:1` of a match with its result said "Forfeit recorded for cruz"
    and changed nothing (the log kept it); `/result 1 walkover` offered the /forfeit
    line, which would have given away cruz's next match. Both say to reopen it first."""
    chat = Chat(engine)
    await chat.night(*PLAYERS)
    match, white, black = await chat.first_match(*PLAYERS)
    number = match.number
    chat.at("2026-01-31T20:05")
    await chat.say("ana", f"/result {number} 3-1")
    before = await chat.tournament()
    reply = await chat.say("ana", f'/forfeit {black} match:{number} reason:"left"')
    assert reply == (
        f"Match {number} has its result already: nothing was changed. To give it away by"
        f" forfeit, reopen it first, /reopen {number}, then send the forfeit again."
    ), reply
    reply = await chat.say("ana", f"/result {number} walkover")
    assert reply == (
        f"Match {number} has its result already. To make it a forfeit, reopen it first,"
        f" /reopen {number}, then name who did not play:"
        f' /forfeit {white} match:{number} reason:"..."'
        f' or /forfeit {black} match:{number} reason:"..."'
    ), reply
    after = await chat.tournament()
    assert [
        (m.number, m.status, m.white_score, m.black_score) for m in after.matches.values()
    ] == [(m.number, m.status, m.white_score, m.black_score) for m in before.matches.values()]
    await chat.say("ana", f"/reopen {number}")
    reply = await chat.say("ana", f'/forfeit {black} match:{number} reason:"left"')
    assert reply.startswith(f"Forfeit recorded for {black}."), reply
