"""Every hint quotes what was reported or typed and fits the match: copied as it stands,
it does what it says (issue 15, items 5, 7 and 14; CLUB-REPORT, HGV-5.3)."""

from __future__ import annotations

import re

from sqlalchemy.ext.asyncio import AsyncEngine

from tests.commands.chat import Chat
from tournament.model import MatchStatus


async def _two_players(chat: Chat, extra: str = "") -> tuple[int, str, str]:
    """Draw bob and cruz into one match, started; return its number, white and black."""
    await chat.night("bob", "cruz", extra=extra)
    chat.at("2026-01-31T20:05")
    state = await chat.tournament()
    (match,) = state.matches.values()
    names = {await chat.player_id(n): n for n in ("bob", "cruz")}
    assert match.white is not None and match.black is not None
    return match.number, names[match.white], names[match.black]


def _result_commands(text: str) -> list[str]:
    return re.findall(r"/result \d+ \d+-\d+", text)


async def test_the_dispute_hint_sets_the_score_reported_CLUB_REPORT(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    number, white, black = await _two_players(chat)
    await chat.say(white, "/report 3-2")
    reply = await chat.say(black, "/dispute")
    assert _result_commands(reply) == [f"/result {number} 3-2"]
    status = await chat.say("ana", "/status")
    assert f"/result {number} 3-2" in status and "3-1" not in status
    await chat.say("ana", _result_commands(reply)[0])
    match = (await chat.tournament()).matches[number]
    assert (match.status, match.white_score, match.black_score) == (MatchStatus.FINISHED, 3, 2)


async def test_a_match_to_5_gets_hints_of_its_own_length_HGV_5_3(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    number, white, black = await _two_players(chat, extra="group_length:5")
    status = await chat.say("ana", "/status")
    assert "/report 5-3" in status and f"/result {number} 5-3" in status
    assert "3-1" not in status
    await chat.say(black, "/report 5-4")
    (hint,) = _result_commands(await chat.say(white, "/dispute"))
    assert hint == f"/result {number} 4-5"
    reply = await chat.say("ana", hint)
    match = (await chat.tournament()).matches[number]
    assert match.status is MatchStatus.FINISHED, reply
    assert (match.white_score, match.black_score) == (4, 5)


async def test_a_disputing_player_gives_their_own_score_for_that_match_CLUB_REPORT(
    engine: AsyncEngine,
) -> None:
    """`/report 1-3` after `/dispute` is the disputer's score for the disputed match."""
    chat = Chat(engine)
    number, white, black = await _two_players(chat)
    await chat.say(white, "/report 3-2")
    await chat.say(black, "/dispute")
    reply = await chat.say(black, "/report 1-3")
    assert "another" not in reply and f"Match {number}" in reply
    match = (await chat.tournament()).matches[number]
    assert match.status is MatchStatus.DISPUTED
    assert match.report is not None and match.report.counter is not None
    both = [t for c, t in chat.posted if c == "club" and "reports differ" in t]
    assert _result_commands(" ".join([reply, *both])) == [
        f"/result {number} 3-2",
        f"/result {number} 3-1",
    ]
    await chat.say("ana", f"/result {number} 3-1")
    match = (await chat.tournament()).matches[number]
    assert (match.white_score, match.black_score) == (3, 1)


async def test_the_disputing_players_matching_score_settles_it_CLUB_REPORT(
    engine: AsyncEngine,
) -> None:
    """A dispute pressed by mistake: the same score, given after it, is agreed."""
    chat = Chat(engine)
    number, white, black = await _two_players(chat)
    await chat.say(white, "/report 3-2")
    await chat.say(black, "/dispute")
    await chat.say(black, "/report 2-3")
    match = (await chat.tournament()).matches[number]
    assert (match.status, match.white_score, match.black_score) == (MatchStatus.FINISHED, 3, 2)


async def test_a_result_with_its_number_and_both_names_is_understood(engine: AsyncEngine) -> None:
    """`/result 16 rocio 7-5 alex`, a natural way to type a correction, sets rocio's score
    first once match 16 is theirs (issue 15, item 7)."""
    chat = Chat(engine)
    number, white, black = await _two_players(chat)
    reply = await chat.say("ana", f"/result {number} {black} 3-1 {white}")
    match = (await chat.tournament()).matches[number]
    assert (match.white_score, match.black_score) == (1, 3), reply
    reply = await chat.say("ana", f"/result {number} {white} 3-2 {black} confirm")
    match = (await chat.tournament()).matches[number]
    assert (match.white_score, match.black_score) == (3, 2), reply


async def test_a_result_hint_never_repeats_the_line_that_failed(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora")
    state = await chat.tournament()
    dora = await chat.player_id("dora")
    number = next(m.number for m in state.matches.values() if not m.involves(dora))
    typed = f"/result {number} bob 3-1 dora"
    reply = await chat.say("ana", typed)
    assert typed not in reply and f"Match {number} is" in reply
    for typed in (f"/result {number} 3-1 void", f"/result {number}", "/result bob"):
        reply = await chat.say("ana", typed)
        assert not re.search(re.escape(typed) + r"\s*([.·]|$)", reply), reply
        assert "/result alice 3-1 bob" in reply, reply
    assert (await chat.tournament()).matches[number].status is MatchStatus.SCHEDULED


async def test_help_result_documents_only_forms_that_work(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    reply = await chat.say("ana", "/help result")
    usage = reply.splitlines()[0]
    assert usage.startswith("/result alice 3-1 bob · /result 5 3-1 · /result 5 void "), usage
    assert "[5] [alice]" not in reply and "void: void:" not in reply
    assert "confirm: confirm:" not in reply


async def test_help_result_says_whose_score_comes_first(engine: AsyncEngine) -> None:
    """A director's /result has no "yours": /help result said "the score, yours first"."""
    chat = Chat(engine)
    reply = await chat.say("ana", "/help result")
    assert (
        "3-1: the score, the named player's first (alice 3-1 bob), else white's (5 3-1);"
        " tiebreak scores after it" in reply
    ), reply
    assert "yours first" in await chat.say("ana", "/help report")


async def test_help_shows_the_new_name_of_a_rename_as_needed_not_optional(
    engine: AsyncEngine,
) -> None:
    """`/player rename "zofia kowalska" [to:"Zofia Kowalska"]`: without it nothing is renamed."""
    chat = Chat(engine)
    reply = await chat.say("ana", "/help player")
    assert '/player rename "zofia kowalska" to:"Zofia Kowalska": ' in reply, reply
    assert '/player merge "Rocío 2" into:"Rocío": ' in reply, reply
    assert "[to:" not in reply and "[into:" not in reply, reply
    # Still read without the colon, as a director types it.
    await chat.night("bob", "cruz")
    said = await chat.say("ana", '/player rename bob to "Bob Brown"')
    assert "Bob Brown" in said, said


async def test_a_directors_score_refusal_shows_result_not_report_HGV_5_3(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    number, _, _ = await _two_players(chat, extra="group_length:5")
    reply = await chat.say("ana", f"/result {number} 3-1")
    assert f"/result {number} 5-3" in reply and "/report" not in reply, reply


async def test_the_rules_show_a_report_of_the_groups_own_length_HGV_5_3(
    engine: AsyncEngine,
) -> None:
    """Navodari groups play to 5: /rules must not teach /report 3-1 (NAV games)."""
    chat = Chat(engine)
    await chat.say(
        "ana", '/tournament new name:"Cupa" preset:navodari-table start:"2026-01-31 20:00"'
    )
    rules = await chat.say("ana", "/rules")
    assert "/report 5-3" in rules and "/report 3-1" not in rules, rules


async def test_cancel_without_a_tournament_names_the_clubs_open_ones(engine: AsyncEngine) -> None:
    """/tournament cancel reason:"..." said "Say which tournament: /tournament cancel "May
    Cup" ...": now the tournaments it could mean, the finished and cancelled left out;
    typed as said, it cancels that one."""
    chat = Chat(engine)
    for name, day in (("Old Cup", "01-31"), ("Jan Cup", "02-07"), ("Feb Cup", "02-28")):
        made = await chat.say(
            "ana", f'/tournament new name:"{name}" start:"2026-{day} 20:00" approval:no'
        )
        assert name in made, made
    called_off = await chat.say("ana", '/tournament cancel "Old Cup" reason:"nobody came"')
    assert "Old Cup" in called_off and "cancelled" in called_off, called_off
    said = await chat.say("ana", '/tournament cancel reason:"snow"')
    assert 'tournament:"Jan Cup" · tournament:"Feb Cup"' in said, said
    assert "Old Cup" not in said and "May Cup" not in said, said
    done = await chat.say("ana", '/tournament cancel reason:"snow" tournament:"Feb Cup"')
    assert "Feb Cup" in done and "cancelled" in done, done


async def test_move_with_one_tournament_shows_the_line_naming_it(engine: AsyncEngine) -> None:
    """With one tournament, /tournament move start:... asked "Which tournament? Add
    tournament:"Cupa" to the command": a question of one choice. The line to type again
    names it, with what was typed; typed so, it moves it."""
    chat = Chat(engine)
    await chat.say("ana", '/tournament new name:"Cupa" start:"2026-01-31 20:00"')
    said = await chat.say("ana", '/tournament move start:"2026-02-07 20:00" reason:"hall taken"')
    line = '/tournament move start:"2026-02-07 20:00" reason:"hall taken" tournament:Cupa'
    assert said == f"Name the tournament, to be sure: {line}", said
    moved = await chat.say("ana", line)
    assert "Cupa moves to" in moved or "Sat, Feb 7" in moved, moved
    assert (await chat.tournament()).start.day == 7


async def test_help_present_shows_several_names_at_once(engine: AsyncEngine) -> None:
    """/present takes several names (the director at the door); /help showed only one."""
    chat = Chat(engine)
    reply = await chat.say("ana", "/help present")
    assert reply.startswith(
        "/present alice · /present alice bob: mark players present, one or several at once"
    ), reply
