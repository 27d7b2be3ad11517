"""Which match a report means when a player has more than one on (CLUB-REPORT, HGV-2.3.4)."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy.ext.asyncio import AsyncEngine

from commands.dispatch import Response
from tests.commands.chat import Chat
from tournament.model import MatchStatus
from tournament.state import Match, TournamentState

PLAYERS = ("bob", "cruz", "dora", "emil")


async def two_rounds_of(chat: Chat, state: TournamentState) -> tuple[str, Match, Match]:
    """Return a player and their first two matches, in two different rounds."""
    for name in PLAYERS:
        player = await chat.player_id(name)
        mine = sorted(
            (m for m in state.matches.values() if m.involves(player)), key=lambda m: m.number
        )
        if len(mine) >= 2 and mine[0].start != mine[1].start:
            return name, mine[0], mine[1]
    raise AssertionError("no player with two rounds")


async def two_rounds_drawn(engine: AsyncEngine) -> tuple[Chat, str, Match, Match]:
    """Return a drawn night, and a player with their first two matches."""
    chat = Chat(engine)
    await chat.night(*PLAYERS)
    return chat, *await two_rounds_of(chat, await chat.tournament())


async def opponent_away(chat: Chat, name: str, match: Match) -> None:
    """Have the director mark `name`'s opponent in `match` away: neither of `name`'s
    matches can then be known to be on the board, and a report has to ask."""
    me = await chat.player_id(name)
    for other in PLAYERS:
        if other != name and match.involves(await chat.player_id(other)):
            assert match.involves(me)
            assert "away" in await chat.say("ana", f"/away {other}")
            return
    raise AssertionError("no opponent")


def at(chat: Chat, match: Match, minutes: int) -> None:
    assert match.start is not None
    chat.at((match.start + timedelta(minutes=minutes)).strftime("%Y-%m-%dT%H:%M"))


def buttons_of(response: Response) -> list[str]:
    """Return the commands a reply's buttons send, without the club they name."""
    return [b.command.split(" club:")[0] for b in response.reply.buttons]


async def three_at_the_first_match(engine: AsyncEngine) -> tuple[Chat, Match, str, str, Match]:
    """Return a drawn night of three at 20:05, its first match, that match's player whose
    next match is round 2's (free for it once the first is played), the other player, and
    round 2's match."""
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora")
    chat.at("2026-01-31T20:05")
    match, white, black = await chat.first_match("bob", "cruz", "dora")
    state = await chat.tournament()
    second = min((m for m in state.matches.values() if m.round == 2), key=lambda m: m.number)
    if second.involves(await chat.player_id(white)):
        return chat, match, white, black, second
    return chat, match, black, white, second


async def test_a_report_means_the_match_not_yet_reported_not_the_one_awaiting_the_opponent_CLUB_REPORT(  # noqa: E501
    engine: AsyncEngine,
) -> None:
    chat, name, first, second = await two_rounds_drawn(engine)
    at(chat, second, -3)
    assert "recorded" in await chat.say(name, f"/report {first.length}-1")
    at(chat, second, 4)  # the first report still waits for the opponent
    reply = await chat.say(name, f"/report {second.length}-2")
    assert f"Match {second.number}" in reply, reply
    state = await chat.tournament()
    assert state.matches[second.number].status is MatchStatus.PENDING
    report = state.matches[first.number].report
    assert report is not None and (report.white, report.black) in {
        (first.length, 1),
        (1, first.length),
    }, "the first report stays as it was"


async def test_the_same_score_sent_again_while_the_next_match_is_on_asks_which_CLUB_REPORT(
    engine: AsyncEngine,
) -> None:
    """A score sent twice, the second time once the next match was on, was recorded in the
    next match: the opponent there had a result they never played. The same score as the
    report awaiting the opponent asks, that match among the buttons; another is the next."""
    chat, name, first, second = await two_rounds_drawn(engine)
    at(chat, second, -3)
    assert "recorded" in await chat.say(name, f"/report {first.length}-1")
    at(chat, second, 4)  # the first report still waits for the opponent
    response = await chat.response(name, f"/report {first.length}:1")
    assert response is not None
    asked = chat.text(response)
    assert f"You reported this score for match {first.number} already" in asked, asked
    assert buttons_of(response) == [
        f"/report {first.length}-1 match:{first.number}",
        f"/report {first.length}-1 match:{second.number}",
    ]
    state = await chat.tournament()
    assert state.matches[second.number].report is None
    again = await chat.say(name, f"/report {first.length}-1 match:{first.number}")
    assert "recorded already" in again, again


async def test_a_disputed_players_report_is_their_score_though_the_next_match_is_free_HGV_2_3_4(
    engine: AsyncEngine,
) -> None:
    """A disputed match leaves its players free for an early start of the next one; the
    disputer's next /report is still their score of the disputed match (CLUB-REPORT)."""
    chat, match, disputer, reporter, second = await three_at_the_first_match(engine)
    await chat.say(reporter, f"/report {match.length}-1")
    await chat.say(disputer, "/dispute")
    said = await chat.say(disputer, f"/report 1-{match.length}")
    assert "Which match?" not in said, said
    state = await chat.tournament()
    assert state.matches[second.number].report is None, "nothing went to the next match"
    assert state.matches[match.number].is_final, "the same score from both: final"


async def test_a_disputers_report_once_the_next_match_is_under_way_asks_which_CLUB_REPORT(
    engine: AsyncEngine,
) -> None:
    """A player disputed, gave no score, and played on: at the next match's time their
    /report may be either, and is asked, not taken as the disputed match's score."""
    chat, match, disputer, reporter, second = await three_at_the_first_match(engine)
    await chat.say(reporter, f"/report {match.length}-1")
    await chat.say(disputer, "/dispute")
    at(chat, second, 30)
    response = await chat.response(disputer, f"/report {second.length}-1")
    assert response is not None
    assert "Which match?" in chat.text(response), chat.text(response)
    assert len(buttons_of(response)) == 2, buttons_of(response)


async def test_a_report_corrected_soon_after_is_the_same_match_not_the_next_free_one_HGV_2_3_4(
    engine: AsyncEngine,
) -> None:
    """The next match is on early once both are free, but cannot have been played while
    the player's own report of the first still waits: a new score corrects that one."""
    chat, match, reporter, _, _ = await three_at_the_first_match(engine)
    await chat.say(reporter, f"/report {match.length}-1")
    said = await chat.say(reporter, f"/report {match.length}-2")
    assert said.startswith(f"Match {match.number}:"), said
    state = await chat.tournament()
    assert all(m.report is None for m in state.matches.values() if m.number != match.number)


async def test_a_score_no_match_on_can_end_is_refused_with_an_example_not_offered_as_buttons_HGV_5_3(  # noqa: E501
    engine: AsyncEngine,
) -> None:
    chat, name, first, second = await two_rounds_drawn(engine)
    at(chat, second, 4)  # both matches are on, neither reported
    await opponent_away(chat, name, first)  # so either may be the one played
    response = await chat.response(name, "/report 0-0")
    assert response is not None and response.refused
    assert not response.reply.buttons, "no button repeats a score that would be refused"
    assert "/report" in chat.text(response)
    asked = await chat.say(name, f"/report {first.length}-1")
    assert "Which match?" in asked, asked


async def test_the_question_shows_the_players_own_line_with_a_number_CLUB_REPORT(
    engine: AsyncEngine,
) -> None:
    chat, name, first, second = await two_rounds_drawn(engine)
    at(chat, second, 4)  # both matches are on, neither reported
    await opponent_away(chat, name, first)  # so either may be the one played
    response = await chat.response(name, f"/report {first.length}:2")
    assert response is not None
    asked = chat.text(response)
    # Not a score of our choosing: a player who typed 5:2 was shown "/report 5-3".
    assert f"add its number: /report {first.length}-2 match:{first.number}" in asked, asked
    assert buttons_of(response) == [
        f"/report {first.length}-2 match:{first.number}",
        f"/report {first.length}-2 match:{second.number}",
    ]


async def test_a_report_means_the_match_on_the_board_not_the_one_that_waits_for_it_HGV_2_3_4(
    engine: AsyncEngine,
) -> None:
    chat, name, first, second = await two_rounds_drawn(engine)
    at(chat, second, 4)  # the round ran over: the second match waits for the first
    reply = await chat.say(name, f"/report {first.length}-1")
    assert "Which match?" not in reply, reply
    assert f"Match {first.number}" in reply, reply
    state = await chat.tournament()
    assert state.matches[first.number].report is not None
    assert state.matches[second.number].report is None


async def test_an_opponents_name_after_the_score_is_who_the_report_is_against_CLUB_REPORT(
    engine: AsyncEngine,
) -> None:
    """/report 3-1 cruz answered "I did not understand cruz" with the usage line; the
    name of an opponent after the score is vs:cruz. A word that names no opponent of
    the player's (a director, or "now") is still refused with the usage line."""
    chat, name, first, second = await two_rounds_drawn(engine)
    at(chat, second, 4)  # both on: without a name it would be asked (or guessed)
    me = await chat.player_id(name)
    names = {await chat.player_id(n): n for n in PLAYERS}
    opponent = names[second.opponent_of(me)]
    for word in ("now", "ana"):
        refused = await chat.say(name, f"/report {second.length}-1 {word}")
        assert f"I did not understand {word}" in refused, refused
    said = await chat.say(name, f"/report {second.length}-1 {opponent}")
    assert f"Match {second.number}" in said and "recorded" in said, said
    state = await chat.tournament()
    assert state.matches[second.number].report is not None
    assert state.matches[first.number].report is None


async def test_an_opponent_said_in_the_polish_instrumental_is_the_opponent_CLUB_REPORT(
    engine: AsyncEngine,
) -> None:
    """In Łódź piotr typed /wynik 3-1 z Markiem ("with Marek"): "Nobody here is called
    Markiem". A Polish first name in the instrumental (Piotrem, Markiem, Anną, Kasią), after
    "z" or alone after the score, names the opponent whose name it inflects; a name that
    inflects none is refused as before, and nothing is recorded."""
    chat = Chat(engine)
    names = {
        "piotr": "Piotr Nowak",
        "marek": "Marek Zając",
        "anna": "Anna Kowal",
        "kasia": "Kasia Lis",
    }
    said_with = {"piotr": "z Piotrem", "marek": "z Markiem", "anna": "z Anną", "kasia": "Kasią"}
    await chat.say("ana", '/tournament new name:"Cup" start:"2026-01-31 20:00" approval:no')
    for handle, name in names.items():
        await chat.say(handle, f'/register name:"{name}"')
        await chat.say(handle, "/confirm")
    chat.at("2026-01-31T19:30")
    for handle in names:
        await chat.say(handle, "/checkin")
    await chat.say("ana", "/draw")
    chat.at("2026-01-31T20:10")
    ids = {await chat.player_id(name): h for h, name in names.items()}
    state = await chat.tournament()
    first_round = [m for m in state.matches.values() if m.round == 1]
    assert len(first_round) == 2
    for match in first_round:
        assert match.white is not None and match.black is not None
        me, opponent = ids[match.white], ids[match.black]
        for nobody in ("z Tadeuszem", "Tadeuszem"):
            refused = await chat.say(me, f"/report {match.length}-1 {nobody}")
            assert "Tadeuszem" in refused and "recorded" not in refused, refused
        said = await chat.say(me, f"/report {match.length}-1 {said_with[opponent]}")
        assert f"Match {match.number}" in said and "recorded" in said, said
    after = (await chat.tournament()).matches
    assert [after[m.number].report is not None for m in first_round] == [True, True]
