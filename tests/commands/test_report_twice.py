"""The same report typed again is not announced again (issue 15.17, CLUB-REPORT)."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from tests.commands.chat import Chat
from tournament.model import MatchStatus


def asked_of(chat: Chat, player: str) -> list[str]:
    """Return the requests to accept a report that went to `player`."""
    return [text for to, text in chat.posted if to == f"user:{player}" and " reports " in text]


async def test_the_same_report_typed_again_or_as_3_1_is_announced_once_CLUB_REPORT(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora")
    chat.at("2026-01-31T20:05")
    match, white, black = await chat.first_match("bob", "cruz", "dora")
    length = match.length
    for typed in (f"{length}-1", f"{length}:1", f"{length} 1", f"{length}-1"):
        reply = await chat.say(white, f"/report {typed}")
        assert "recorded" in reply, (typed, reply)
    assert len(asked_of(chat, black)) == 1, chat.posted
    state = await chat.tournament()
    report = state.matches[match.number].report
    assert report is not None and report.seq == 1
    assert state.matches[match.number].status is MatchStatus.PENDING
    again = await chat.say(white, f"/report {length}-1")
    assert "replaces" not in again, again  # the same score: nothing replaced
    changed = await chat.say(white, f"/report {length}-2")  # another score: asked again
    assert len(asked_of(chat, black)) == 2, chat.posted
    # The reporter sees which of their own scores the new one replaces, theirs first.
    assert changed.endswith(f"It replaces your earlier report, {length}-1."), changed


async def test_a_black_reporters_replaced_score_is_said_their_side_first_CLUB_REPORT(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora")
    chat.at("2026-01-31T20:05")
    match, _, black = await chat.first_match("bob", "cruz", "dora")
    await chat.say(black, f"/report {match.length}-1")
    changed = await chat.say(black, f"/report {match.length}-2")
    assert changed.endswith(f"It replaces your earlier report, {match.length}-1."), changed


async def test_a_report_sent_again_later_says_it_stands_at_the_first_sendings_time_CLUB_REPORT(
    engine: AsyncEngine,
) -> None:
    """Łódź's Adam sent his 4-0 three times, ten minutes apart: each time he read "it stands
    after 15 minutes", though the first sending's minutes ran on; nor is it logged again."""
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora")
    chat.at("2026-01-31T20:05")
    match, white, black = await chat.first_match("bob", "cruz", "dora")
    await chat.say(white, f"/report {match.length}-1")
    chat.at("2026-01-31T20:15")

    again = await chat.say(white, f"/report {match.length}:1")

    assert again == (
        f"Match {match.number}: {white} {match.length}-1 {black} is recorded already."
        f" {black} can accept or dispute it; it stands at 20:20."
    ), again
    story = await chat.say("ana", f"/log {match.number}")
    assert story.count("reported") == 1, story
