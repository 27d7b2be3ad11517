"""A director's /result that gives a reported match to the other player says so (CLUB-REPORT).

`/result 3 0-7` is white's score first: a director copying a black reporter's "7-0"
reverses the match. The result stands (the director decides), and the reply says whose
win the report claimed and the /result that keeps it.
"""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from tests.commands.chat import Chat


async def test_a_result_against_the_pending_report_names_the_claim_and_the_undo(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora", "emil")
    match, white, black = await chat.first_match("bob", "cruz", "dora", "emil")
    await chat.say(black, "/report 5-2")  # black's own score first: black won 5-2
    said = await chat.say("ana", f"/result {match.number} 5-2")  # white's first: white won
    assert (
        f"{black} had reported {white} 2-5 {black}, a win for {black}; this result gives"
        f" the match to {white}. If that was a slip: /result {match.number} 2-5"
    ) in said, said
    state = await chat.tournament()
    assert state.matches[match.number].winner == await chat.player_id(white)
    # The hint is what it says: it gives the match back to the reporter.
    again = await chat.say("ana", f"/result {match.number} 2-5")
    assert "was 5-2" in again, again
    state = await chat.tournament()
    assert state.matches[match.number].winner == await chat.player_id(black)


async def test_a_result_that_agrees_with_the_report_adds_nothing(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora", "emil")
    match, white, black = await chat.first_match("bob", "cruz", "dora", "emil")
    await chat.say(black, "/report 5-2")
    said = await chat.say("ana", f"/result {match.number} 2-5")
    assert "had reported" not in said, said
    assert f"Match {match.number}: {white} 2-5 {black}. {black} wins." in said, said


async def test_a_disputed_match_settled_either_way_is_not_called_a_reversal(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora", "emil")
    match, white, black = await chat.first_match("bob", "cruz", "dora", "emil")
    await chat.say(black, "/report 5-2")
    await chat.say(white, "/dispute")
    said = await chat.say("ana", f"/result {match.number} 5-2")
    assert "had reported" not in said, said
