"""Commands and values typed the way people type them, in the club's language (issue 15,
items 10-13 and its polish list)."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from commands.parsing import parse
from tests.commands.chat import Chat
from tournament.model import MatchStatus


def test_a_hyphen_in_a_command_word_is_typed_for_nothing() -> None:
    assert parse("/check-in").name == "checkin"
    assert parse("/Check-In").name == "checkin"
    assert parse("/report-3-1") == parse("/report 3-1")
    assert parse("/report–3–1").args == ("3–1",)


async def test_check_in_with_a_hyphen_is_answered_as_the_command(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await chat.night("bob", "cruz", check_in=())
    for typed in ("/check-in", "/Check-In"):
        reply = await chat.say("bob", typed)
        assert reply and "/checkin" not in reply, reply
    assert (await chat.tournament()).entries[await chat.player_id("bob")].checked_in


async def test_a_score_glued_to_report_is_reported(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await chat.night("bob", "cruz")
    chat.at("2026-01-31T20:05")
    reply = await chat.say("bob", "/report-3-1")
    assert "recorded" in reply
    (match,) = (await chat.tournament()).matches.values()
    assert match.status is MatchStatus.PENDING


async def test_tournament_info_counts_the_players_waiting_for_approval_HGV_1_4(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await chat.say("ana", '/tournament new name:"Cup" start:"2026-01-31 20:00" approval:yes')
    for player in ("bob", "cruz", "dora"):
        await chat.say(player, "/register")
    reply = await chat.say("ana", "/tournament info")
    assert "0 entries, and 3 players wait for approval: /approve all" in reply, reply


async def test_status_never_offers_a_draw_of_nobody_HGV_1_4(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await chat.say("ana", '/tournament new name:"Cup" start:"2026-01-31 20:00" approval:yes')
    await chat.say("bob", "/register")
    reply = await chat.say("ana", "/status")
    assert "0 players" not in reply and "Nobody can be drawn yet" in reply, reply
    await chat.say("ana", "/approve all")
    await chat.say("bob", "/confirm")
    assert "1 player can be drawn now: /draw." in await chat.say("ana", "/status")
