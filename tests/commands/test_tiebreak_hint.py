"""A level draughts match asks for its tiebreak with the command that was typed, one
score longer, and that suggestion stands when sent (WAR-V, WAR-GAME)."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from tests.commands.chat import Chat
from tournament.model import MatchStatus
from tournament.state import Match

PLAYERS = ("bob", "cruz", "dora", "emil")


async def draughts_night(engine: AsyncEngine) -> tuple[Chat, Match, str, str]:
    """Return a draughts night at its first match's start: the chat, the match and its
    white and black players' names."""
    chat = Chat(engine)
    await chat.night(*PLAYERS, preset="warcaby-100")
    match, white, black = await chat.first_match(*PLAYERS)
    chat.at("2026-01-31T20:05")
    return chat, match, white, black


def suggestion(reply: str) -> str:
    """Return the command a reply suggests (its last `/...` up to the full stop)."""
    return "/" + reply.rsplit("/", 1)[1].split(".")[0].strip()


async def test_a_player_is_shown_their_own_report_with_a_tiebreak_added_WAR_V(
    engine: AsyncEngine,
) -> None:
    chat, match, white, black = await draughts_night(engine)
    reply = await chat.say(white, "/report 2-2")
    assert "level" in reply and suggestion(reply) == "/report 2-2 3-1", reply
    assert "white's score first" not in reply and reply.count("/report") == 1, reply
    assert "recorded" in await chat.say(white, suggestion(reply))
    await chat.say(black, "/accept")
    state = await chat.tournament()
    assert state.matches[match.number].status is MatchStatus.FINISHED


async def test_a_director_is_shown_the_result_typed_with_a_tiebreak_added_WAR_V(
    engine: AsyncEngine,
) -> None:
    chat, match, _, _ = await draughts_night(engine)
    reply = await chat.say("ana", f"/result {match.number} 2-2 2-2")
    assert suggestion(reply) == f"/result {match.number} 2-2 2-2 3-1", reply
    assert "/report" not in reply, reply
    await chat.say("ana", suggestion(reply))
    state = await chat.tournament()
    assert state.matches[match.number].status is MatchStatus.FINISHED
    assert state.matches[match.number].tiebreaks == ((2, 2), (3, 1))


async def test_a_tiebreak_that_does_not_add_up_is_named_and_shown_redone_WAR_V(
    engine: AsyncEngine,
) -> None:
    chat, match, white, black = await draughts_night(engine)
    reply = await chat.say("ana", f"/result {match.number} 2-2 4-2")
    # The tiebreak is at fault, not the 2-2 of the match itself (which adds up).
    assert "Tiebreak 1 adds up to 4" in reply, reply
    assert suggestion(reply) == f"/result {match.number} 2-2 3-1", reply
    assert reply.count("/result") == 1, reply
    reply = await chat.say(white, "/report 2-2 2-2 5-0")
    assert "Tiebreak 2 adds up to 4" in reply and suggestion(reply) == "/report 2-2 2-2 3-1"
    assert "recorded" in await chat.say(white, suggestion(reply))
    await chat.say(black, "/accept")
    state = await chat.tournament()
    assert state.matches[match.number].tiebreaks == ((2, 2), (3, 1))


async def test_a_correction_to_a_level_score_shows_its_tiebreak_WAR_V(
    engine: AsyncEngine,
) -> None:
    chat, match, white, black = await draughts_night(engine)
    await chat.say("ana", f"/result {match.number} 3-1")
    reply = await chat.say("ana", f"/result {match.number} 2-2 1-3")
    corrected = f"Match {match.number} corrected: {white} 2-2 (tiebreak 1-3) {black} (was 3-1)."
    assert corrected in reply, reply
