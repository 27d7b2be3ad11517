"""/rules of a draughts tournament says the shortened games of each stage (WAR-V)."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from tests.commands.chat import Chat
from tournament.preset import load_preset


async def test_rules_say_the_groups_and_the_knockouts_shortened_games_WAR_V(
    engine: AsyncEngine,
) -> None:
    """warcaby-100 plays 2 × 5 and 2 × 3 in the groups, and 2 × 2 as well in the knockout:
    /rules said the knockout's three for every drawn match."""
    scoring = load_preset("warcaby-100").scoring
    assert scoring.group_tiebreak_games != scoring.knockout_tiebreak_games
    chat = Chat(engine)
    await chat.say(
        "ana",
        '/tournament new name:"Puchar" preset:warcaby-100 start:"2026-01-31 10:00"',
    )

    rules = await chat.say("bob", "/rules")

    groups = ", ".join(g.replace("x", " × ") for g in scoring.group_tiebreak_games)
    knockout = ", ".join(g.replace("x", " × ") for g in scoring.knockout_tiebreak_games)
    assert (
        "A drawn match is decided by shortened games, then by lot: in the groups"
        f" {groups} minutes, in the knockout {knockout} minutes."
    ) in rules.splitlines(), rules
