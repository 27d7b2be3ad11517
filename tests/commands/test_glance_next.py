"""Between rounds the director's /status says which match is called next, and a /result
for a knockout match a player has not reached yet says which match to settle first."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from tests.commands.chat import Chat
from tournament.model import Stage


async def test_a_quiet_glance_says_which_match_is_next(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora")
    match, white, black = await chat.first_match("bob", "cruz", "dora")
    chat.at("2026-01-31T19:40")

    said = await chat.say("ana", "/status")

    lines = said.splitlines()
    assert "Nothing needs you right now." in lines, said
    at = lines.index("Next match:")
    assert lines[at + 1] == f"Match {match.number}: {white} v {black} at 20:00 (to 3)", said


async def test_a_busy_glance_lists_the_next_round_after_what_needs_the_director(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    players = [f"p{i}" for i in range(1, 13)]  # four groups of three: four matches at once
    await chat.night(*players)
    chat.at("2026-01-31T19:40")
    said = await chat.say("ana", "/status")
    assert "Next matches (4):" in said, said
    chat.at("2026-01-31T20:05")
    said = await chat.say("ana", "/status")
    assert said.index("Started, no result yet (4)") < said.index("Next matches (4):"), said


async def test_a_result_for_a_final_not_reached_yet_names_the_match_to_settle_first(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora")
    chat.at("2026-01-31T23:00")
    for match in sorted((await chat.tournament()).matches.values(), key=lambda m: m.number):
        await chat.say("ana", f"/result {match.number} 3-1")
    state = await chat.tournament()
    knockout = [m for m in state.matches.values() if m.stage is Stage.KNOCKOUT]
    final = max(knockout, key=lambda m: m.number)
    feeder = next(m for m in knockout if not m.is_final and m is not final)
    seeded = final.white or final.black
    assert seeded is not None and feeder.white is not None
    ids = {await chat.player_id(n): n for n in ("bob", "cruz", "dora")}

    response = await chat.response(
        "ana", f"/result {final.number} {ids[feeder.white]} 7-5 {ids[seeded]}"
    )

    assert response is not None and response.refused
    said = chat.text(response)
    assert f"winner of {feeder.number}" in said, said
    assert f"{ids[feeder.white]} reaches it only when match {feeder.number} has its result" in (
        said
    )
    assert f"/result {feeder.number} SCORE" in said, said
    assert "?" not in said.split(":")[0], said
    # The schedule, everyone's and the seeded player's own (in match order), says so too.
    for asked, user in (("/schedule all", "ana"), ("/schedule", ids[seeded])):
        table = await chat.say(user, asked)
        (line,) = [row for row in table.splitlines() if row.split()[:1] == [str(final.number)]]
        assert f"winner of {feeder.number}" in line and "?" not in line, table
    own = await chat.say(ids[seeded], "/schedule")
    numbers = [int(row.split()[0]) for row in own.splitlines() if row.split()[0].isdigit()]
    assert numbers == sorted(numbers), own


async def test_a_final_reported_before_the_last_chance_says_what_the_finish_waits_for(
    engine: AsyncEngine,
) -> None:
    """February's final was reported, its Last Chance final never was: the tournament
    stayed in play, its ranking points never given, and nobody was told. The final's
    announcement now says which match the finish waits for (HGV-7.4.13)."""
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora", "eva")
    chat.at("2026-01-31T23:00")
    said = ""
    while True:
        state = await chat.tournament()
        ready = [m for m in state.matches.values() if m.is_ready and not m.is_final]
        playing = [m for m in ready if m.stage is not Stage.CONSOLATION] or ready
        if not playing or playing[0].stage is Stage.CONSOLATION:
            break
        match = min(playing, key=lambda m: m.number)
        chat.posted.clear()
        await chat.say("ana", f"/result {match.number} {match.length}-1")
        said = "\n".join(text for _chat, text in chat.posted)
    last_chance = next(m for m in state.matches.values() if m.stage is Stage.CONSOLATION)
    assert "January Cup finishes, and its ranking points are given, once this match" in said
    assert f"Match {last_chance.number}: " in said, said
    await chat.say("ana", f"/result {last_chance.number} {last_chance.length}-1")
    assert (await chat.tournament()).status.value == "finished"


async def test_next_months_glance_names_an_earlier_night_left_unfinished_HGV_7_5(
    engine: AsyncEngine,
) -> None:
    """Valencia's May and December finals were never reported: their ranking points never
    came, and January's /status, the one glance a director reads, said nothing of them."""
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora")  # January Cup, drawn, left in its groups
    await chat.say(
        "ana", '/tournament new name:"February Cup" start:"2026-02-28 20:00" approval:no'
    )
    chat.at("2026-02-28T19:00")
    said = await chat.say("ana", "/status")
    assert said.startswith("February Cup: open for entries."), said
    assert said.endswith(
        "Still unfinished from earlier nights (1): January Cup; their ranking points wait"
        ' for their last results: /status tournament:"January Cup"'
    ), said


async def test_a_cup_played_earlier_the_same_day_is_not_an_earlier_night(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora")  # January Cup at 20:00, drawn
    await chat.say("ana", '/tournament new name:"Late Cup" start:"2026-01-31 23:00" approval:no')
    said = await chat.say("ana", '/status tournament:"Late Cup"')
    assert said.startswith("Late Cup: open for entries."), said
    assert "Still unfinished" not in said, said
