"""A level draughts match asks for its tiebreak with the command that was typed, one
score longer, and that suggestion stands when sent (WAR-V, WAR-GAME)."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from commands.pictures import CardView
from commands.replies import Picture
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


async def test_a_level_score_against_the_opponents_report_offers_to_accept_it_WAR_V(
    engine: AsyncEngine,
) -> None:
    chat, match, white, black = await draughts_night(engine)
    await chat.say(white, "/report 4-0")
    reply = await chat.say(black, "/report 2:2")
    assert "level" in reply and "/report 2-2 3-1" in reply, reply
    assert f"{white} reported 0-4 (your score first)" in reply, reply
    assert f"/accept {match.number}" in reply, reply
    state = await chat.tournament()
    played = state.matches[match.number]
    assert played.status is MatchStatus.PENDING and played.report is not None
    assert (played.report.white, played.report.black) == (4, 0)


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


async def test_a_disputed_draughts_match_is_told_in_games_not_as_a_match_to_two_WAR_GAME(
    engine: AsyncEngine,
) -> None:
    chat, _match, white, black = await draughts_night(engine)
    await chat.say(white, "/report 3-1")
    said = await chat.say(black, "/dispute")
    assert "is disputed by" in said, said
    # A draughts match is two games: its disputer is told how a score adds up there.
    assert "(2 games, 2 points a win, 1 a draw)" in said, said
    assert "a match to 2" not in said, said


async def test_the_schedule_shows_the_tiebreak_that_decided_a_level_match_WAR_V(
    engine: AsyncEngine,
) -> None:
    chat, match, _white, _black = await draughts_night(engine)
    await chat.say("ana", f"/result {match.number} 2-2 3-1")
    schedule = await chat.say("ana", "/schedule all")
    row = next(line for line in schedule.splitlines() if line.split()[:1] == [str(match.number)])
    # "2-2" alone says nothing of who won; the tiebreak does.
    assert "2-2 (3-1)" in row, row


async def test_a_players_card_shows_the_tiebreak_from_their_side_WAR_V(
    engine: AsyncEngine,
) -> None:
    chat, match, white, black = await draughts_night(engine)
    await chat.say("ana", f"/result {match.number} 2-2 3-1")
    scores = {}
    for name in (white, black):
        response = await chat.response(name, "/schedule")
        assert response is not None
        (card,) = [p.view for p in response.reply.parts if isinstance(p, Picture)]
        assert isinstance(card, CardView)
        scores[name] = next(line.score for line in card.lines if line.number == match.number)
    assert scores == {white: "2-2 (3-1)", black: "2-2 (1-3)"}, scores
