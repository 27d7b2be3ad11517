"""Whole flows through the command layer on a real database."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy.ext.asyncio import AsyncEngine

from tests.commands.chat import Chat
from tournament.model import EntryStatus, MatchStatus, TournamentStatus


async def test_a_small_night_from_registration_to_ranking_points(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora")
    state = await chat.tournament()
    assert state.status is TournamentStatus.GROUPS
    chat.at("2026-01-31T20:05")
    names = {await chat.player_id(n): n for n in ("bob", "cruz", "dora")}
    while state.status is not TournamentStatus.FINISHED:
        for match in sorted(state.matches.values(), key=lambda m: m.number):
            if match.is_ready and not match.is_final:
                assert match.white is not None and match.black is not None
                white, black = names[match.white], names[match.black]
                reply = await chat.say(white, f"/report {match.length}-1 match:{match.number}")
                assert "recorded" in reply
                reply = await chat.say(black, f"/accept {match.number}")
                assert f"Match {match.number}:" in reply
                break
        state = await chat.tournament()
    assert state.placements and state.placements[0].place == 1
    assert any("is over. Champion" in text for _, text in chat.posted)


async def test_lateness_falls_due_on_its_own_and_is_announced_HGV_2_3_1(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora", check_in=("bob", "cruz"))
    await chat.wait(180)
    late = [text for chat_id, text in chat.posted if "minutes late" in text and chat_id == "club"]
    assert any("dora is 10 minutes late" in t for t in late)
    state = await chat.tournament()
    dora = await chat.player_id("dora")
    assert state.entries[dora].status is EntryStatus.NO_SHOW
    first = state.matches_of(dora)[0]
    assert first.start is not None
    assert [p.at - first.start for p in state.penalties.values() if p.against == dora] == [
        timedelta(minutes=10),
        timedelta(minutes=20),
    ]


async def test_a_player_cannot_use_director_commands(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await chat.night("bob", "cruz")
    before = await chat.tournament()
    reply = await chat.say("bob", "/result bob 3-0 cruz")
    assert reply == "Only directors can use /result."
    after = await chat.tournament()
    assert [m.status for m in after.matches.values()] == [
        m.status for m in before.matches.values()
    ]


async def test_a_player_may_report_only_their_own_match(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora", "eli")
    state = await chat.tournament()
    bob = await chat.player_id("bob")
    other = next(m for m in state.matches.values() if not m.involves(bob))
    reply = await chat.say("bob", f"/report 3-1 match:{other.number}")
    assert reply == f"Match {other.number} is not yours. /schedule shows your matches."
    assert (await chat.tournament()).matches[other.number].status is MatchStatus.SCHEDULED


async def test_a_redelivered_update_is_applied_once(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await chat.night("bob", "cruz")
    chat.at("2026-01-31T20:05")
    first = await chat.say("bob", "/report 3-1", update_id="u1")
    second = await chat.say("bob", "/report 3-1", update_id="u1")
    assert "recorded" in first and second == ""
    state = await chat.tournament()
    assert [m.report.seq for m in state.matches.values() if m.report] == [1]


async def test_an_early_checkin_says_when_it_opens(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await chat.say("ana", '/tournament new name:"Cup" start:"2026-01-31 20:00" approval:no')
    await chat.say("bob", "/register")
    assert await chat.say("bob", "/checkin") == "Check-in opens at Sat, Jan 31, 19:00."


async def test_a_cube_that_is_no_number_is_refused_with_what_to_type(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await chat.night("bob", "cruz")
    chat.at("2026-01-31T20:05")
    reply = await chat.say("bob", "/report game gammon cube:two")
    assert reply == "two is not a cube value: write cube:2 (1, 2, 4 ... 64)."
    state = await chat.tournament()
    assert all(not m.games for m in state.matches.values())


async def test_a_refused_cube_says_to_send_the_game_without_it_HGV_7_3_2(
    engine: AsyncEngine,
) -> None:
    """At 2-2 in a match to 3 the cube is pointless: luis, in Valencia, was told so and then
    "send your score first, for example /report 3-1", a match's score, not his game."""
    chat = Chat(engine)
    await chat.night("bob", "cruz")
    chat.at("2026-01-31T20:05")
    await chat.say("bob", "/report game gammon")
    await chat.say("cruz", "/report game gammon")
    reply = await chat.say("bob", "/report game backgammon cube:2")
    assert reply == (
        "At these scores the cube is not used.\n"
        "Send the game without the cube: /report game backgammon"
    ), reply
    (match,) = (await chat.tournament()).matches.values()
    assert (match.white_score, match.black_score) == (2, 2)
    reply = await chat.say("bob", "/report game gammon cube:3")
    assert reply.endswith("For example /report game gammon cube:2."), reply


async def test_a_game_typed_against_the_opponents_report_asks_for_an_answer_CLUB_REPORT(
    engine: AsyncEngine,
) -> None:
    """bob's games ended the match (3-0, waiting for cruz); cruz typed "/report game" and
    read "already has a report waiting for your opponent", though it waited for him."""
    chat = Chat(engine)
    await chat.night("bob", "cruz")
    chat.at("2026-01-31T20:05")
    await chat.say("bob", "/report game gammon")
    await chat.say("bob", "/report game")
    (match,) = (await chat.tournament()).matches.values()
    reply = await chat.say("cruz", "/report game")
    assert reply == (
        f"Match {match.number} has your opponent's report waiting for your answer: "
        f"/accept {match.number} if it is right, /dispute {match.number} if it is not."
    ), reply
    assert (await chat.tournament()).matches[match.number].report == match.report
    reply = await chat.say("bob", "/report game")
    assert reply == f"Match {match.number} already has a report waiting for your opponent."
