"""Before the knockout, /bracket says which group matches it waits for."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from tests.commands.chat import Chat


async def test_the_bracket_names_the_group_matches_it_waits_for_and_the_disputed_ones(
    engine: AsyncEngine,
) -> None:
    """A Romanian night: the knockout waited on a disputed match 5, and /bracket said
    only "the knockout has not started yet"."""
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora", "eve")
    chat.at("2026-01-31T20:25")
    match, white, black = await chat.first_match("bob", "cruz", "dora", "eve")
    await chat.say(white, f"/report 3-1 match:{match.number}")
    await chat.say(black, f"/report 3-1 match:{match.number}")  # theirs first: a dispute
    state = await chat.tournament()
    left = sorted(m.number for m in state.matches.values() if not m.is_final)
    said = await chat.say("bob", "/bracket")
    assert "the knockout has not started yet" in said, said
    assert f"last matches are played: {', '.join(map(str, left))}." in said, said
    assert f"Disputed, a director decides: {match.number}." in said, said
