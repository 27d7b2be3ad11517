"""The score a refusal suggests can itself be reported (WAR-GAME, HGV-5.2)."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from commands.reporting import report_usage
from tests.commands.chat import Chat
from tournament.model import Stage
from tournament.preset import load_preset
from tournament.scoring import FinalScore, check_final_score
from tournament.state import Match


def match_of(length: int) -> Match:
    return Match(number=1, stage=Stage.GROUP, round=1, length=length, white=1, black=2, start=None)


def suggested(length: int, game: str) -> FinalScore:
    white, black = report_usage(match_of(length), game).removeprefix("/report ").split("-")
    return FinalScore(int(white), int(black))


def test_the_draughts_hint_adds_up_to_two_points_a_game_WAR_GAME() -> None:
    rules = load_preset("warcaby-100").scoring
    assert report_usage(match_of(2), "draughts") == "/report 3-1"
    for length in (1, 2, 3):
        check_final_score(rules, "draughts", length, suggested(length, "draughts"))


def test_the_backgammon_hint_is_a_win_of_the_match_length_HGV_5_2() -> None:
    rules = load_preset("hgv-backgammon").scoring
    assert report_usage(match_of(7), "backgammon") == "/report 7-5"
    for length in (1, 3, 5, 7):
        check_final_score(rules, "backgammon", length, suggested(length, "backgammon"))


async def draughts_match_on(chat: Chat) -> tuple[Match, str, str]:
    """Play to 20:05 of a draughts night of four (WAR-V); return its first match and its
    white and black players."""
    await chat.night("bob", "cruz", "dora", "eva", preset="warcaby-100")
    chat.at("2026-01-31T20:05")
    return await chat.first_match("bob", "cruz", "dora", "eva")


async def test_a_draughts_score_typed_in_games_is_answered_in_points_WAR_GAME(
    engine: AsyncEngine,
) -> None:
    """ "/report 2-0" (both games won) is told it is 4-0 in points, and that line records
    it; a director's /result in games is answered with its /result line in points."""
    chat = Chat(engine)
    match, white, black = await draughts_match_on(chat)
    # The director's glance gives a draughts match's length in games (WAR-V), too.
    glance = await chat.say("ana", "/status")
    assert f"Match {match.number}: " in glance and "(2 games)" in glance, glance
    assert "(to 2)" not in glance, glance
    said = await chat.say(white, "/report 2-0")
    assert said.startswith("2-0 counts games: a draughts score counts points"), said
    assert said.endswith("for example /report 4-0."), said
    await chat.say(white, "/report 4-0")
    await chat.say(black, "/accept")
    recorded = (await chat.tournament()).matches[match.number]
    assert (recorded.white_score, recorded.black_score) == (4, 0)
    said = await chat.say("ana", f"/result {match.number} 1-0")
    assert said.endswith(f"for example /result {match.number} 3-1."), said
    # Players named: the line is said as typed, the first named player's score first
    # ("jan 2-0 łukasz", jan black, was answered "0-2 counts games").
    said = await chat.say("ana", f"/result {match.number} {black} 2-0 {white}")
    assert said.startswith("2-0 counts games"), said
    assert said.endswith(f"/result {match.number} {black} 4-0 {white}."), said


async def test_a_draughts_tiebreak_typed_in_games_is_answered_in_points_WAR_V(
    engine: AsyncEngine,
) -> None:
    """A level match (2-2) and its tiebreak typed in games ("2-0", both tiebreak games
    won) was told only "tiebreak 1 adds up to 4"; the line in points is given, and it
    records the result."""
    chat = Chat(engine)
    match, white, black = await draughts_match_on(chat)
    said = await chat.say(white, "/report 2-2 2-0")
    assert said.startswith("2-0 counts games"), said
    assert said.endswith("for example /report 2-2 4-0."), said
    said = await chat.say("ana", f"/result {match.number} 2-2 0-2")
    assert said.startswith("0-2 counts games"), said
    assert said.endswith(f"/result {match.number} 2-2 0-4."), said
    await chat.say("ana", f"/result {match.number} 2-2 0-4")
    recorded = (await chat.tournament()).matches[match.number]
    assert recorded.tiebreaks == ((0, 4),)
    assert recorded.winner == await chat.player_id(black)  # black won the tiebreak


async def test_a_level_tiebreak_typed_in_games_is_answered_with_what_follows_it_WAR_V(
    engine: AsyncEngine,
) -> None:
    """Marek typed "/report 2-2 1-1" (one tiebreak game each) and read "send /report 2-2
    2-2", level again, and then "add the next tiebreak": the line in points carries a
    sample next phase, or, after the last phase the rules allow, the lot."""
    chat = Chat(engine)
    match, white, _ = await draughts_match_on(chat)
    said = await chat.say(white, "/report 2-2 1-1")
    assert said.endswith("for example /report 2-2 2-2 3-1."), said
    said = await chat.say(white, "/report 2-2 2-2 1-1")  # two phases in a group (WAR-V)
    assert said.endswith("for example /report 2-2 2-2 2-2 lot:won."), said
    said = await chat.say("ana", f"/result {match.number} 2-2 1-1")
    assert said.endswith(f"/result {match.number} 2-2 2-2 3-1."), said
    said = await chat.say(white, "/report 2-2 1-1 3-1")  # the next phase typed: kept
    assert said.endswith("for example /report 2-2 2-2 3-1."), said


async def test_a_score_typed_in_games_keeps_its_tiebreak_and_lot_in_the_line_WAR_V(
    engine: AsyncEngine,
) -> None:
    """A director's "/result 13 2-2 2-2 1-1 lot:white" (the last tiebreak in games) was
    answered with the line in points without its lot: sent, it was refused again."""
    chat = Chat(engine)
    match, white, black = await draughts_match_on(chat)
    said = await chat.say(white, "/report 1-1 3-1")
    assert said.endswith("for example /report 2-2 3-1."), said
    said = await chat.say("ana", f"/result {match.number} {black} 1-1 1-3 {white}")
    assert said.endswith(f"/result {match.number} {black} 2-2 1-3 {white}."), said
    said = await chat.say("ana", f"/result {match.number} 2-2 2-2 1-1 lot:white")
    line = f"/result {match.number} 2-2 2-2 2-2 lot:white"
    assert said.endswith(f"for example {line}."), said
    await chat.say("ana", line)
    recorded = (await chat.tournament()).matches[match.number]
    assert recorded.tiebreaks == ((2, 2), (2, 2)) and recorded.lot_winner == "white"
    assert recorded.winner == await chat.player_id(white)


async def test_a_corrected_tiebreak_says_the_tiebreak_it_replaced_WAR_V(
    engine: AsyncEngine,
) -> None:
    """Łódź's final, 2-2 with the tiebreak 3-1, was corrected to 2-2 (1-3): the club read
    "(was 2-2)", as if only the tiebreak had been added."""
    chat = Chat(engine)
    match, white, black = await draughts_match_on(chat)
    await chat.say("ana", f"/result {match.number} 2-2 3-1")

    said = await chat.say("ana", f"/result {match.number} 2-2 1-3")

    assert said.startswith(
        f"Match {match.number} corrected: {white} 2-2 (tiebreak 1-3) {black}"
        " (was 2-2 (tiebreak 3-1))."
    ), said
    again = await chat.say("ana", f"/result {match.number} 2-2 1-3")
    assert again.startswith(
        f"Match {match.number} already stands at 2-2 (tiebreak 1-3): nothing changed."
    ), again
