"""A no-show's forfeited match corrected to a played score: the director hears that the
player is still a no-show, and how to bring them back (CLUB-NO-SHOW)."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from tests.commands.chat import Chat
from tournament.model import EntryStatus, MatchStatus


async def test_a_played_score_for_a_no_shows_match_names_reinstate_CLUB_NO_SHOW(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora", check_in=("bob", "cruz"))
    await chat.wait(100)  # her first match, at 20:00 or 20:40, is lost 30 minutes in
    state = await chat.tournament()
    dora = await chat.player_id("dora")
    assert state.entries[dora].status is EntryStatus.NO_SHOW
    first = min((m for m in state.matches.values() if dora in m.players), key=lambda m: m.number)
    assert first.status is MatchStatus.FORFEIT
    other = "bob" if first.opponent_of(dora) == await chat.player_id("bob") else "cruz"

    said = await chat.say("ana", f"/result dora 3-2 {other}")

    assert "dora is still recorded as a no-show" in said, said
    assert '/reinstate dora reason:"..."' in said, said
    state = await chat.tournament()
    assert state.matches[first.number].winner == dora
    assert state.entries[dora].status is EntryStatus.NO_SHOW  # the score alone: no return
    # A played score between players who came says nothing of the kind.
    played = next(m for m in state.matches.values() if dora not in m.players)
    assert "no-show" not in await chat.say("ana", f"/result {played.number} 3-1")
