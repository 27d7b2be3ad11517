"""/status calls a match late only while its players have not been there together since
its start (HGV-2.3.1): a player a director let go after it began is not late for it
(HGV-2.3.7), but is for a match that falls due while away."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy.ext.asyncio import AsyncEngine

from tests.commands.chat import Chat
from tournament.model import Stage
from tournament.state import Match


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
        elif line.startswith(("Match ", "Not here: ")) and into is not None:
            into.append(line)
        else:
            into = None
    return "\n".join(late), "\n".join(started)


async def _away_then_status(engine: AsyncEngine, away: str, asked: str) -> tuple[int, str, str]:
    """Let the first match's black player go at `away`; return the match's number and
    the late and started lines of /status at `asked`."""
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora")
    match, _white, black = await chat.first_match("bob", "cruz", "dora")
    chat.at(f"2026-01-31T{away}")
    await chat.say("ana", f'/away {black} reason:"phone call"')
    chat.at(f"2026-01-31T{asked}")
    return (match.number, *_listed(await chat.say("ana", "/status")))


async def test_a_player_let_go_during_a_begun_match_is_not_late_for_it(
    engine: AsyncEngine,
) -> None:
    number, late, started = await _away_then_status(engine, "20:05", "20:30")
    assert f"Match {number}:" in started and f"Match {number}:" not in late, (late, started)


async def test_a_match_due_while_its_player_is_away_is_late(engine: AsyncEngine) -> None:
    number, late, started = await _away_then_status(engine, "19:50", "20:05")
    assert f"Match {number}:" in late and f"Match {number}:" not in started, (late, started)


async def test_a_late_match_names_who_is_not_here_and_when_it_is_forfeited_HGV_2_3_1(
    engine: AsyncEngine,
) -> None:
    _, late, _ = await _away_then_status(engine, "19:50", "20:05")
    chat_line = late.splitlines()[-1]
    # Three lateness steps of 10 minutes reach a group match's length: 20:30.
    assert chat_line.startswith("Not here: "), late
    assert "forfeited at 20:30 if still absent" in chat_line, late


async def test_a_late_match_whose_clock_is_paused_says_so_HGV_2_3_1(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora", check_in=("bob", "cruz"))
    dora = await chat.player_id("dora")
    state = await chat.tournament()
    match = min((m for m in state.matches.values() if m.involves(dora)), key=lambda m: m.number)
    assert match.start is not None
    chat.at(f"{match.start + timedelta(minutes=5):%Y-%m-%dT%H:%M}")
    status = await chat.say("ana", "/status")
    forfeit = f"{match.start + timedelta(minutes=30):%H:%M}"
    assert f"Not here: dora; the match is forfeited at {forfeit}" in status, status
    assert f'/pause {match.number} reason:"..."' in status, status
    await chat.say("ana", f'/pause {match.number} reason:"bus late"')
    status = await chat.say("ana", "/status")
    assert "Not here: dora; the match's clock is paused." in status, status
    # Its clock stands: the heading offers no /pause for it, only the forfeit.
    assert "/pause" not in status, status
    assert "Late (1), their clocks paused; to forfeit: /forfeit and the name:" in status, status


async def doras_match_on(chat: Chat, *, minutes: int) -> Match:
    """Play to `minutes` into dora's first match, bob and cruz checked in, dora not;
    return the match."""
    await chat.night("bob", "cruz", "dora", check_in=("bob", "cruz"))
    state = await chat.tournament()
    dora = await chat.player_id("dora")
    late = min((m for m in state.matches.values() if m.involves(dora)), key=lambda m: m.number)
    assert late.start is not None
    chat.at((late.start + timedelta(minutes=minutes)).strftime("%Y-%m-%dT%H:%M"))
    return late


async def test_a_late_players_name_where_the_match_goes_gives_the_line_with_it(
    engine: AsyncEngine,
) -> None:
    """/pause darek reason:"..." answered "darek is not a match number: type match:3",
    3 being the catalog's example, not darek's match: the reply names darek's match
    (the one whose clock runs, or whose points a /cancel takes back) in the line to type."""
    chat = Chat(engine)
    late = await doras_match_on(chat, minutes=12)
    said = await chat.say("ana", '/pause dora reason:"traffic, she called"')
    assert said == (
        f'dora\'s match is match {late.number}: /pause {late.number} reason:"traffic, she called"'
    ), said
    assert not (await chat.tournament()).matches[late.number].pauses, "nothing changed"
    said = await chat.say("ana", '/cancel dora reason:"traffic"')
    assert said.endswith(f"/cancel {late.number} reason:traffic"), said
    assert "match:3" in await chat.say("ana", "/pause nobody")


async def test_resume_by_name_gives_the_match_whose_clock_stands(engine: AsyncEngine) -> None:
    """Sevilla's director paused match 2 and typed /resume lucia: the reply named Lucía's
    match on now, whose clock ran. /resume NAME names the player's paused match, or none."""
    chat = Chat(engine)
    late = await doras_match_on(chat, minutes=5)
    said = await chat.say("ana", "/resume dora")
    assert "is not a match number" in said, "nothing of dora's is paused"
    await chat.say("ana", f'/pause {late.number} reason:"traffic"')
    said = await chat.say("ana", "/resume dora")
    assert said == f"dora's match is match {late.number}: /resume {late.number}", said


async def test_an_extra_game_neither_player_came_to_gives_the_lot_NAV_TIE(
    engine: AsyncEngine,
) -> None:
    """bob and cruz, tied for the second place, never came: after one extra game lost by
    both, the next one's clock stands, and the director's glance says the tie is theirs
    to settle, with /lot."""
    chat = Chat(engine)
    await chat.night(
        "bob", "cruz", "dora", preset="navodari-table", extra="minimum_age:0", check_in=("dora",)
    )
    await chat.say("ana", '/away bob reason:"not here"')
    await chat.say("ana", '/away cruz reason:"not here"')
    await chat.wait(240)
    state = await chat.tournament()
    extra = [m for m in state.matches.values() if m.stage is Stage.TIEBREAK]
    assert len(extra) == 2 and extra[-1].pauses, [(m.number, m.status) for m in extra]
    status = await chat.say("ana", "/status")
    said = "the match's clock is paused. To settle the tie without them: /lot 1"
    assert f"Not here: bob, cruz; {said}" in status or f"Not here: cruz, bob; {said}" in status
