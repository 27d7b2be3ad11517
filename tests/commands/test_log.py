"""The director's log (`/log`): every override is logged with who made it and why, and
shown back as the command that made it; a match's log tells its whole story."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy.ext.asyncio import AsyncEngine

from tests.commands.chat import Chat

PLAYERS = ("bob", "cruz", "dora")


async def test_the_log_shows_each_directors_act_as_its_command_with_who_and_why(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await chat.night(*PLAYERS, added=("Rosa Núñez",))
    await chat.say("ana", '/present "Rosa Núñez"')
    await chat.say("ana", "/result 1 3-0")
    await chat.say("ana", '/result 1 0-3 reason:"the score sheet says so"')

    response = await chat.response("ana", "/log")

    assert response is not None and response.reply.private
    lines = chat.text(response).splitlines()
    assert lines[0] == "January Cup: who did what, oldest first (6 acts)", lines
    assert lines[1:] == [
        'Fri, Jan 30, 12:00 ana: /tournament new name:"January Cup"',
        'Fri, Jan 30, 12:00 ana: /addplayer "Rosa Núñez"',
        "19:30 ana: /draw",
        '19:30 ana: /present "Rosa Núñez"',
        "19:30 ana: /result 1 3-0",
        '19:30 ana: /result 1 0-3 reason:"the score sheet says so"',
    ], lines


async def test_a_matchs_log_tells_its_report_dispute_and_the_directors_decision(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await chat.night(*PLAYERS)
    match, white, black = await chat.first_match(*PLAYERS)
    chat.at("2026-01-31T20:30")
    await chat.say(black, "/report 3-1")
    await chat.say(white, "/dispute")
    await chat.say("ana", f'/result {match.number} 3-2 reason:"both agreed at the table"')

    lines = (await chat.say("ana", f"/log {match.number}")).splitlines()

    assert lines == [
        f"January Cup, match {match.number}: who did what, oldest first",
        f"20:30 {black}: reported match {match.number}: {white} 1-3 {black}",
        f"20:30 {white}: /dispute {match.number}",
        f'20:30 ana: /result {match.number} 3-2 reason:"both agreed at the table"',
    ], lines
    assert "/checkin" not in await chat.say("ana", "/log")
    assert f"{black}: /checkin" in await chat.say("ana", "/log all")


async def test_the_log_is_for_directors_and_says_when_there_is_nothing(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await chat.night(*PLAYERS)
    assert await chat.say("bob", "/log") == "Only directors can use /log."
    assert await chat.say("ana", "/log 7") == "Nothing is logged for match 7 of January Cup."


async def test_a_draughts_result_is_logged_with_its_tiebreak_and_lot_WAR_V(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora", "emil", preset="warcaby-100")
    match, white, black = await chat.first_match("bob", "cruz", "dora", "emil")
    chat.at("2026-01-31T20:05")
    await chat.say(white, "/report 2-2 3-1")
    await chat.say("ana", f"/result {match.number} 2-2 2-2 2-2 lot:black")

    lines = (await chat.say("ana", f"/log {match.number}")).splitlines()

    assert lines[1:] == [
        f"20:05 {white}: reported match {match.number}: {white} 2-2 (tiebreak 3-1) {black}",
        f"20:05 ana: /result {match.number} 2-2 2-2 2-2 lot:black",
    ], lines


async def test_a_matchs_log_has_the_rules_part_lateness_points_and_the_forfeit_HGV_2_3_1(
    engine: AsyncEngine,
) -> None:
    """Caracas's director, asked why Tito lost match 1, had only the channel to scroll:
    the match's log says the lateness points and the forfeit, at their times."""
    chat = Chat(engine)
    await chat.night(*PLAYERS, check_in=("bob", "cruz"))
    dora = await chat.player_id("dora")
    first = (await chat.tournament()).matches_of(dora)[0]
    opponent = "bob" if await chat.player_id("bob") in first.players else "cruz"
    assert first.start is not None
    chat.at(first.start.strftime("%Y-%m-%dT%H:%M"))
    await chat.wait(35)

    lines = (await chat.say("ana", f"/log {first.number}")).splitlines()

    at = [(first.start + timedelta(minutes=m)).strftime("%H:%M") for m in (10, 20, 30)]
    assert lines[1:] == [
        f"{at[0]} dora 10 minutes late: 1 point to {opponent}",
        f"{at[1]} dora 20 minutes late: 1 point to {opponent}",
        f"{at[2]} dora lost the match by forfeit (late)",
    ], lines


async def test_a_moved_start_is_logged_on_the_clubs_clock(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await chat.say("ana", "/club timezone:America/Caracas")
    await chat.say("ana", '/tournament new name:"May Cup" start:"2026-05-30 20:00" approval:no')
    await chat.say(
        "ana", '/tournament move "May Cup" start:"2026-06-06 20:00" reason:"venue closed"'
    )

    lines = (await chat.say("ana", "/log")).splitlines()

    assert lines[-1].endswith(
        'ana: /tournament move start:"2026-06-06 20:00" reason:"venue closed"'
    ), lines
