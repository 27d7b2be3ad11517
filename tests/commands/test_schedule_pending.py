"""A reported result awaiting the opponent, as the schedule shows it (CLUB-REPORT)."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from commands.pictures import card_view
from tests.commands.chat import Chat


async def test_the_schedule_shows_a_reported_score_and_whose_answer_it_awaits_CLUB_REPORT(
    engine: AsyncEngine,
) -> None:
    """ana reported 3-1; cruz's /schedule said "0-0, awaiting opponent" of the match he was
    asked to accept, and the director's too: the score reported was nowhere, nor who had
    to answer. The table shows it and names who; cruz's card says it is his to accept."""
    chat = Chat(engine)
    await chat.night("ana", "bob", "cruz", "dora")
    chat.at("2026-01-31T20:05")
    match, white, black = await chat.first_match("ana", "bob", "cruz", "dora")
    await chat.say(white, "/report 3-1")
    table = await chat.say("ana", "/schedule all")
    row = next(line for line in table.splitlines() if line.strip().startswith(str(match.number)))
    assert "3-1" in row and f"awaiting {black}'s answer" in row, row
    state = await chat.tournament()
    names = {await chat.player_id(n): n for n in ("ana", "bob", "cruz", "dora")}
    white_id, black_id = await chat.player_id(white), await chat.player_id(black)
    theirs = card_view(state, black_id, [state.matches[match.number]], names).lines[0]
    assert (theirs.score, theirs.status.key) == ("1-3", "status.to_answer")
    mine = card_view(state, white_id, [state.matches[match.number]], names).lines[0]
    assert (mine.score, mine.status.key) == ("3-1", "status.pending")


async def test_me_says_a_report_is_the_players_to_accept_not_awaiting_their_own_name_CLUB_REPORT(
    engine: AsyncEngine,
) -> None:
    """Carmen's /me in Valencia: "3-2, awaiting Carmen Díaz's answer", of her own answer."""
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora")
    chat.at("2026-01-31T20:05")
    match, white, black = await chat.first_match("bob", "cruz", "dora")
    await chat.say(white, "/report 3-1")
    card = await chat.say(black, "/me")
    row = next(line for line in card.splitlines() if line.strip().startswith(str(match.number)))
    assert row.endswith("to accept") and "1-3" not in row and "3-1" in row, row
    assert f"awaiting {black}" not in card, card
    mine = await chat.say(white, "/me")
    row = next(line for line in mine.splitlines() if line.strip().startswith(str(match.number)))
    assert row.endswith("awaiting opponent"), row
