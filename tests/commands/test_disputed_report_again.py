"""After a dispute both players have given their scores; a player who then sends /report
again, with nothing else to report, means that match: their own score said again or
corrected, final when it meets the other's (CLUB-REPORT)."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from tests.commands.chat import Chat
from tournament.model import MatchStatus
from tournament.state import Match


async def both_scores_given(chat: Chat) -> tuple[Match, str, str]:
    """Play to a first-round match that white reported 3-1 and black disputed, giving
    their own 3-1 (a win each); return it and its players."""
    await chat.night("bob", "cruz", "dora", "eva")
    chat.at("2026-01-31T20:30")
    match, white, black = await chat.first_match("bob", "cruz", "dora", "eva")
    await chat.say(white, "/report 3-1")
    await chat.say(black, "/dispute")
    await chat.say(black, "/report 3-1")
    return match, white, black


async def test_a_report_after_both_scores_corrects_ones_own_and_can_agree_CLUB_REPORT(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    match, white, black = await both_scores_given(chat)

    said = await chat.say(white, "/report 3-2")  # white's second thought: still not black's

    differs = "your report differs from your opponent's. A director will set the result."
    assert said == f"Match {match.number}: {differs}", said
    state = await chat.tournament()
    report = state.matches[match.number].report
    assert report is not None and (report.white, report.black) == (3, 2)
    assert state.matches[match.number].status is MatchStatus.DISPUTED

    said = await chat.say(black, "/report 2-3")  # black gives in: the scores meet

    assert said.startswith(f"Match {match.number}: {white} 3-2 {black}."), said
    state = await chat.tournament()
    assert state.matches[match.number].status is MatchStatus.FINISHED


async def test_the_same_score_sent_again_in_a_dispute_is_not_announced_again_CLUB_REPORT(
    engine: AsyncEngine,
) -> None:
    """bob and cruz, each sure of his score, sent it again and again: every line told the
    club "the reports differ" once more. The same score changes nothing, and says so."""
    chat = Chat(engine)
    match, white, black = await both_scores_given(chat)
    await chat.drain()
    state = await chat.tournament()
    seq = state.matches[match.number].report_seq

    def differ() -> int:
        return sum("the reports differ" in text for _, text in chat.posted)

    before = differ()
    for player in (white, black, white):
        said = await chat.say(player, "/report 3-1")
        assert said.endswith("A director will set the result."), said
    await chat.drain()

    assert differ() == before, chat.posted
    assert (await chat.tournament()).matches[match.number].report_seq == seq


async def test_a_dispute_says_its_reason_to_the_directors_and_the_log_CLUB_REPORT(
    engine: AsyncEngine,
) -> None:
    """Piotr disputed, then typed /dispute powód:"było 2-2" and read "/dispute has no
    option powód:": a reason is taken with the dispute, or after it, and logged."""
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora", "eva")
    chat.at("2026-01-31T20:30")
    match, white, black = await chat.first_match("bob", "cruz", "dora", "eva")
    await chat.say(white, "/report 3-1")
    said = await chat.say(black, '/dispute reason:"it was 2-3"')
    assert "score.\nThe reason given: it was 2-3\nDirectors:" in said, said
    said = await chat.say(black, '/dispute why:"ask table 4"')
    assert "The reason given: ask table 4" in said, said
    assert "disputed" in said, said
    again = await chat.say(black, "/dispute")
    assert "reason" not in again, again
    log = await chat.say("ana", f"/log {match.number}")
    assert f'/dispute {match.number} reason:"it was 2-3"' in log, log
    assert f'/dispute {match.number} reason:"ask table 4"' in log, log
    assert log.count("/dispute") == 2, log
