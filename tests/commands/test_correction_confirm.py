"""Destructive corrections ask first and say what they undo (issue 15.17, HGV-4.8)."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from tests.commands.chat import Chat
from tests.commands.playing import play_to_the_end
from tournament.model import Stage, TournamentStatus


async def test_reopening_a_finished_final_asks_for_confirm_and_says_what_it_undoes_HGV_4_8(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora", "eva")
    chat.at("2026-01-31T20:05")
    await play_to_the_end(chat)
    state = await chat.tournament()
    final = next(m for m in state.stage_matches(Stage.KNOCKOUT) if m.round_name == "final")
    champion = next(p.player for p in state.placements if p.place == 1)
    names = {await chat.player_id(n): n for n in ("bob", "cruz", "dora", "eva")}
    reply = await chat.say("ana", f"/reopen {final.number}")
    assert "takes back the final placements and ranking points of January Cup" in reply
    assert f"(champion: {names[champion]})" in reply
    assert f"To go ahead: /reopen {final.number} confirm" in reply
    after = await chat.tournament()
    assert after.status is TournamentStatus.FINISHED and after.placements == state.placements
    reply = await chat.say("ana", f"/reopen {final.number} confirm")
    assert f"Match {final.number} is reopened" in reply
    assert (await chat.tournament()).status is TournamentStatus.KNOCKOUT
