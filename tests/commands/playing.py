"""Play a night through the command layer, as a director typing every result."""

from __future__ import annotations

from tests.commands.chat import Chat
from tournament.model import TournamentStatus


async def play_to_the_end(chat: Chat) -> None:
    """The director types every result, white winning, until the tournament is over."""
    for _ in range(50):
        state = await chat.tournament()
        if state.status is TournamentStatus.FINISHED:
            return
        ready = [m for m in state.matches.values() if m.is_ready and not m.is_final]
        assert ready, state.status
        match = min(ready, key=lambda m: m.number)
        reply = await chat.say("ana", f"/result {match.number} {match.length}-0")
        assert f"{match.number}" in reply, reply
    raise AssertionError("never finished")
