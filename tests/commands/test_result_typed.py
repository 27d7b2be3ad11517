"""A director's /result typed the way a phone types it: one number for a score, or two
numbers apart. The reply is the line to send, or the result itself; a refusal changes
nothing."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from tests.commands.chat import Chat
from tournament.model import MatchStatus

PLAYERS = ("bob", "cruz", "dora", "emil")


async def test_a_result_with_half_a_score_gives_the_line_with_a_whole_one(
    engine: AsyncEngine,
) -> None:
    """Sevilla's director typed `/result "María López" 3 carmen` and read "Nobody here is
    called María López 3 carmen"; `/result 1 3`, "Nobody here is called 3"."""
    chat = Chat(engine)
    await chat.night(*PLAYERS)
    match, white, black = await chat.first_match(*PLAYERS)
    chat.at("2026-01-31T20:05")
    said = await chat.say("ana", f"/result {white} 3 {black}")
    assert said == (
        "3 is half a score: give both players' points, the first named player's first: "
        f"/result {white} 3-1 {black}"
    ), said
    said = await chat.say("ana", f"/result {match.number} 1")
    assert said == (
        f"1 is half a score: give both players' points, white's first: /result {match.number} 1-3"
    ), said
    state = await chat.tournament()
    assert state.matches[match.number].status is MatchStatus.SCHEDULED


async def test_a_result_with_the_score_typed_as_two_numbers_is_recorded(
    engine: AsyncEngine,
) -> None:
    """`/result ann 3 1 bob` read "Nobody here is called ann 3 1 bob": it is 3-1."""
    chat = Chat(engine)
    await chat.night(*PLAYERS)
    match, white, black = await chat.first_match(*PLAYERS)
    chat.at("2026-01-31T20:05")
    said = await chat.say("ana", f"/result {white} 3 1 {black}")
    assert said.startswith(f"Match {match.number}: {white} 3-1 {black}."), said
    state = await chat.tournament()
    assert (state.matches[match.number].white_score, state.matches[match.number].black_score) == (
        3,
        1,
    )
