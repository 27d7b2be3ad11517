"""A command's answer and its announcement (issue 18): the reply carries the command's
own announcement, one outbox row, only where the handler marked its reply `announced`
and only in the chat the command came from; elsewhere the reply says it in its own
words and the announcement is posted."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy.ext.asyncio import AsyncEngine

from commands import announce
from tests.commands.chat import Chat
from tournament import attendance, progress
from tournament.preset import load_preset
from tournament.simulation import new_tournament


async def _director_is_a_member(chat: Chat) -> None:
    """Let the director type privately: a member of the club, not entered."""
    await chat.say("ana", '/club name:"HG"')
    await chat.say("ana", "/register")


def _club_posts(chat: Chat, since: int) -> list[str]:
    return [text for chat_id, text in chat.posted[since:] if chat_id == "club"]


async def test_a_result_typed_in_the_club_chat_is_its_announcement_said_once(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora")
    match, white, black = await chat.first_match("bob", "cruz", "dora")
    before = len(chat.posted)
    response = await chat.response("ana", f"/result {match.number} {match.length}-0")
    await chat.drain()
    assert response is not None and len(response.held) == 1 and not response.says_more
    line = f"{white} {match.length}-0 {black}"
    assert line in chat.text(response)
    assert not any(line in text for text in _club_posts(chat, before))


async def test_a_result_typed_privately_is_answered_there_and_announced_in_the_club(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await _director_is_a_member(chat)
    await chat.night("bob", "cruz", "dora")
    match, white, black = await chat.first_match("bob", "cruz", "dora")
    before = len(chat.posted)
    response = await chat.response("ana", f"/result {match.number} {match.length}-0", dm=True)
    await chat.drain()
    assert response is not None and response.held == ()
    line = f"{white} {match.length}-0 {black}"
    assert line in chat.text(response)
    assert any(line in text for text in _club_posts(chat, before)), chat.posted[before:]


async def test_what_fell_due_as_the_command_ran_is_posted_not_taken_for_its_reply_HGV_2_3_1(
    engine: AsyncEngine,
) -> None:
    """Dora's lateness falls due while the director types a result: its announcement
    comes first among the command's messages, yet the reply is the result's."""
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora", "eve", check_in=("bob", "cruz", "eve"))
    chat.at("2026-01-31T20:11")  # no sweep ran: the command catches up on its own
    before = len(chat.posted)
    response = await chat.response("ana", "/result bob 3-0 cruz")
    await chat.drain()
    assert response is not None and len(response.held) == 1
    reply = chat.text(response)
    assert "bob wins" in reply and "late" not in reply, reply
    posted = _club_posts(chat, before)
    assert any("dora is 10 minutes late" in text for text in posted), posted
    assert not any("bob wins" in text for text in posted), posted


async def test_a_reinstatement_is_the_club_announcement_with_the_directors_aside(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await _director_is_a_member(chat)
    await chat.night("bob", "cruz", "dora")
    await chat.say("dora", "/withdraw")
    await chat.say("dora", "/withdraw confirm")
    before = len(chat.posted)
    response = await chat.response("ana", '/reinstate dora reason:"came back"')
    await chat.drain()
    assert response is not None and len(response.held) == 1 and response.says_more
    reply = chat.text(response)
    assert not any("dora is back" in text for text in _club_posts(chat, before))  # said once

    # Typed privately: the same reply, and the club hears the announcement without the
    # director's aside.
    await chat.say("dora", "/withdraw")
    await chat.say("dora", "/withdraw confirm")
    before = len(chat.posted)
    private = await chat.response("ana", '/reinstate dora reason:"again"', dm=True)
    await chat.drain()
    assert private is not None and private.held == () and not private.says_more
    assert chat.text(private) == reply
    (announcement,) = [text for text in _club_posts(chat, before) if "dora is back" in text]
    assert reply.startswith(announcement + "\n") and "/checkin" not in announcement, reply


def test_only_the_messages_of_the_commands_own_events_answer_it() -> None:
    at = datetime(2026, 3, 6, 20, 0, tzinfo=UTC)
    state = new_tournament(load_preset("hgv-backgammon"), 6, at, seed=3)
    progress.draw(state, tuple(sorted(state.entries)), at)
    player = state.groups[0].players[0]
    fell_due = attendance.leave(state, player, at, reason="left")
    own = attendance.reinstate(state, player, at)
    names = {p: f"p{p}" for p in state.entries}
    said = announce.notices(state, fell_due + own, names, own_from=len(fell_due))
    answering = [n for n in said if n.answers]
    assert [n.reply.parts[0].key for n in answering] == ["reinstate.club"]  # type: ignore[union-attr]
    assert not any(n.answers for n in announce.notices(state, fell_due + own, names))


async def test_a_reinstatement_weeks_before_asks_for_no_check_in(engine: AsyncEngine) -> None:
    """Reinstated in December for a night in January: "checks in again with /checkin"
    read as if he had to do something now; it is said once check-in is open."""
    chat = Chat(engine)
    await chat.say("ana", '/tournament new name:"January Cup" start:"2026-01-31 20:00"')
    await chat.say("dora", "/register")
    await chat.say("dora", "/withdraw")
    await chat.say("dora", "/withdraw confirm")
    said = await chat.say("ana", '/reinstate dora reason:"changed her mind"')
    assert "dora is back in the tournament." in said, said
    assert "/checkin" not in said, said


async def test_a_reinstatement_meant_for_a_forfeit_points_to_reopen(engine: AsyncEngine) -> None:
    """A Romanian director forfeited radu ("he left"), he came back, and /reinstate radu
    said only "the player is playing: nothing to reinstate"; the forfeit is undone by
    /reopen of its match, and the refusal says so."""
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora")
    match, white, _black = await chat.first_match("bob", "cruz", "dora")
    chat.at("2026-01-31T20:05")
    said = await chat.say("ana", f'/walkover {white} reason:"left"')
    assert f'/forfeit {white} reason:"left"' in said, said  # the word, answered with the line
    await chat.say("ana", f'/forfeit {white} reason:"left"')
    said = await chat.say("ana", f'/reinstate {white} reason:"came back"')
    assert said.startswith(f"{white} is playing: the entry needs no reinstating."), said
    assert f"/reopen {match.number}" in said, said
