"""/status calls a match late only while its players have not been there together since
its start (HGV-2.3.1): a player a director let go after it began is not late for it
(HGV-2.3.7), but is for a match that falls due while away."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from tests.commands.chat import Chat


def _listed(status: str) -> tuple[str, str]:
    """Return the lines under "Late" and under "Started, no result yet"."""
    late: list[str] = []
    started: list[str] = []
    into: list[str] | None = None
    for line in status.splitlines():
        if line.startswith("Late ("):
            into = late
        elif line.startswith("Started, no result yet ("):
            into = started
        elif line.startswith("Match ") and into is not None:
            into.append(line)
        else:
            into = None
    return "\n".join(late), "\n".join(started)


async def test_a_player_let_go_during_a_begun_match_is_not_late_for_it(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora")
    match, _white, black = await chat.first_match("bob", "cruz", "dora")
    chat.at("2026-01-31T20:05")
    await chat.say("ana", f'/away {black} reason:"phone call"')
    chat.at("2026-01-31T20:30")
    late, started = _listed(await chat.say("ana", "/status"))
    assert f"Match {match.number}:" in started and f"Match {match.number}:" not in late, (
        late,
        started,
    )


async def test_a_match_due_while_its_player_is_away_is_late(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora")
    match, _white, black = await chat.first_match("bob", "cruz", "dora")
    chat.at("2026-01-31T19:50")
    await chat.say("ana", f"/away {black}")
    chat.at("2026-01-31T20:05")
    late, started = _listed(await chat.say("ana", "/status"))
    assert f"Match {match.number}:" in late and f"Match {match.number}:" not in started, (
        late,
        started,
    )
