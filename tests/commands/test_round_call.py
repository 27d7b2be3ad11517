"""A round's call says which tables wait for a match still being played."""

from __future__ import annotations

import re

from sqlalchemy.ext.asyncio import AsyncEngine

from tests.commands.chat import Chat


async def test_a_table_whose_player_still_plays_says_so_in_the_call(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora", "emil")
    await chat.wait(60)  # the first round unplayed when the second is called
    calls = [text for _, text in chat.posted if "to your tables" in text]
    assert len(calls) == 2, calls
    first, second = calls
    assert "still playing" not in first
    state = await chat.tournament()
    round_one = {m.number: m for m in state.matches.values() if m.round == 1}
    names = {p: await chat.player_id(p) for p in ("bob", "cruz", "dora", "emil")}
    busy = re.findall(
        r"(\w+) \(match (\d+)\) and (\w+) \(match (\d+)\) are still playing: this table"
        r" follows\.",
        second,
    )
    # Every table of the second round waits for both its players, named rightly.
    assert len(busy) == 2, second
    for white, white_match, black, black_match in busy:
        assert names[white] in round_one[int(white_match)].players, (white, white_match)
        assert names[black] in round_one[int(black_match)].players, (black, black_match)


async def test_a_players_reminder_says_which_match_to_finish_first(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora", "emil")
    await chat.wait(60)
    state = await chat.tournament()
    for name in ("bob", "cruz", "dora", "emil"):
        player = await chat.player_id(name)
        first = next(m for m in state.matches_of(player) if m.round == 1)
        second = next(m for m in state.matches_of(player) if m.round == 2)
        reminders = [t for c, t in chat.posted if c == f"user:{name}" and "starts at" in t]
        assert reminders[-1].startswith(f"Your match {second.number} against"), reminders
        assert reminders[-1].endswith(
            f"Finish your match {first.number} first: this one follows it."
        ), reminders
        assert "first" not in reminders[0], reminders  # round one waits for nothing


async def test_the_directors_glance_says_which_match_waits_for_which(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora", "emil")
    await chat.wait(75)  # 20:45: the second round is due, the first still on
    glance = await chat.say("ana", "/status")
    state = await chat.tournament()
    # One line a match, naming every earlier match it waits for.
    waits = re.findall(r"Match (\d+) waits for matche?s? ([\d, ]+), still being played\.", glance)
    second = {m.number for m in state.matches.values() if m.round == 2}
    assert sorted(int(later) for later, _ in waits) == sorted(second), glance
    for later, earliers in waits:
        for earlier in earliers.split(", "):
            match, before = state.matches[int(later)], state.matches[int(earlier)]
            assert set(match.players) & set(before.players) and before.round == 1, (later, earlier)


async def test_a_match_reported_is_not_said_to_wait_for_an_earlier_one(
    engine: AsyncEngine,
) -> None:
    """Ola played and reported match 6 while her opponent's match 2 had no result yet:
    /status listed match 6 as waiting for the opponent's answer, then "Match 6 waits
    for match 2, still being played": it was played already."""
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora", "emil")
    await chat.wait(75)  # 20:45: the second round is due, the first still on
    state = await chat.tournament()
    names = {await chat.player_id(n): n for n in ("bob", "cruz", "dora", "emil")}
    first = min((m for m in state.matches.values() if m.round == 1), key=lambda m: m.number)
    assert first.white is not None
    second = next(m for m in state.matches.values() if m.round == 2 and m.involves(first.white))
    # The first match's white finished it and played the next: both reported.
    player = names[first.white]
    assert "recorded" in await chat.say(player, f"/report {first.length}-0 match:{first.number}")
    said = await chat.say(player, f"/report {second.length}-0 match:{second.number}")
    assert "recorded" in said, said
    glance = await chat.say("ana", "/status")
    assert f"Match {second.number} waits for" not in glance, glance


async def test_a_match_reported_is_not_one_its_players_are_still_playing(
    engine: AsyncEngine,
) -> None:
    """José reported match 1 at 20:25 (his opponent had not answered yet): the 20:40 round's
    call said "José is still playing match 1: this table follows", and his reminder told him
    to finish match 1 first. A score reported is a match played, as a report's own match
    finding counts it (HGV-2.3.4)."""
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora", "emil")
    await chat.wait(55)  # 20:25: round one played, the second round not called yet
    state = await chat.tournament()
    names = {await chat.player_id(n): n for n in ("bob", "cruz", "dora", "emil")}
    for match in (m for m in state.matches.values() if m.round == 1):
        assert match.white is not None
        said = await chat.say(names[match.white], f"/report {match.length}-1")
        assert "recorded" in said, said
    await chat.wait(10)  # past the second round's call, the reports still unanswered
    state = await chat.tournament()
    assert all(m.report is not None for m in state.matches.values() if m.round == 1)
    calls = [text for _, text in chat.posted if "to your tables" in text]
    assert len(calls) == 2, calls
    assert "still playing" not in calls[1], calls[1]
    reminders = [t for c, t in chat.posted if c.startswith("user:") and "starts at" in t]
    assert reminders and not [t for t in reminders if "first: this one follows" in t], reminders
    glance = await chat.say("ana", "/status")
    assert "still being played" not in glance, glance
