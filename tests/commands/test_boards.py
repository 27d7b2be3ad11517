"""The chats' live boards (issue 20): the entries while registering, the round being played
after the draw."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from commands import quiet
from commands.rendering import Renderer
from tests.commands.chat import Chat


async def test_the_group_board_keeps_the_round_being_played(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora", "eva")
    state = await chat.tournament()
    names: dict[int, str] = {}  # shown as #id: the test reads the ids off the matches
    shown = Renderer("en", "UTC", "plain").reply(quiet.board(state, names)).text
    assert "Being played:" in shown
    first = min(state.matches.values(), key=lambda m: m.number)
    assert f"Table 1: #{first.white} (white) v #{first.black}, match {first.number}." in shown
    await chat.say("ana", f"/result {first.number} {first.length}-0")
    state = await chat.tournament()
    shown = Renderer("en", "UTC", "plain").reply(quiet.board(state, names)).text
    assert f"match {first.number}." not in shown  # finished: off the list


async def test_the_registration_board_lists_entries_with_their_marks(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await chat.say(
        "ana", '/tournament new name:"January Cup" start:"2026-01-31 20:00" approval:no'
    )
    await chat.say("bob", "/register")
    await chat.say("cruz", "/register")
    await chat.say("cruz", "/confirm")
    state = await chat.tournament()
    bob, cruz = await chat.player_id("bob"), await chat.player_id("cruz")
    board = quiet.entries_board(state, {bob: "bob", cruz: "cruz"})
    shown = Renderer("en", "UTC", "plain").reply(board).text.splitlines()
    assert shown[0].startswith("January Cup is open for entries")
    assert "Entries (2)" in shown
    assert [line.split() for line in shown if line.startswith(("bob", "cruz"))] == [
        ["bob"],
        ["cruz", "\u2713"],
    ]
