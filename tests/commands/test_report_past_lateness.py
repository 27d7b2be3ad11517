"""A report whose score the match being played cannot have (HGV-2.3.3, CLUB-REPORT)."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy.ext.asyncio import AsyncEngine

from tests.commands.chat import Chat
from tournament.model import MatchStatus


async def test_a_score_below_the_lateness_points_is_not_moved_to_a_later_match_CLUB_REPORT(
    engine: AsyncEngine,
) -> None:
    """dora came 25 minutes late to match 1 (her opponent 2 lateness points up) and, at
    20:50, typed /report 3-1 for it: the score could not end match 1, so it was recorded
    for her next match, against ana, which had not begun (it waited for match 1). It is
    refused for match 1, with a score that can end it as the example."""
    chat = Chat(engine)
    await chat.night("ana", "bob", "cruz", "dora", check_in=("ana", "bob", "cruz"))
    state = await chat.tournament()
    dora = await chat.player_id("dora")
    first, *later = sorted(state.open_matches_of(dora), key=lambda m: m.number)
    assert first.start is not None
    chat.at((first.start + timedelta(minutes=25)).isoformat())
    await chat.say("dora", "/checkin")
    state = await chat.tournament()
    assert (
        state.penalty_points(
            state.matches[first.number], state.matches[first.number].opponent_of(dora) or 0
        )
        == 2
    )
    chat.at((first.start + timedelta(minutes=50)).isoformat())
    said = await chat.say("dora", "/report 3-1")
    assert "cannot be lower" in said and "/report 3-2" in said, said
    state = await chat.tournament()
    assert all(state.matches[m.number].status is MatchStatus.SCHEDULED for m in later)
    assert state.matches[first.number].report is None
