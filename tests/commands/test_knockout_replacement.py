"""A knockout forfeiter's last victim steps in (HGV-2.3.8): the bracket says in whose
place, not that the victim came by a bye (nine players: one play-in, then the
quarter-finals)."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from commands.dispatch import Response
from commands.pictures import BracketView
from commands.replies import Picture
from tests.commands.chat import Chat
from tournament.model import MatchStatus, Stage
from tournament.state import Match

PLAYERS = ("jan", "ola", "piotr", "kasia", "tomek", "zosia", "adam", "ewa", "marek")


async def _forfeit_in(chat: Chat, round_name: str) -> tuple[Match, str, str, Response]:
    """Play the night until a knockout match of `round_name` whose black player won an
    earlier knockout match is next; forfeit that player. Return the match, the victim
    who steps in, the forfeiter, and the director's /bracket."""
    await chat.night(*PLAYERS)
    chat.at("2026-01-31T20:05")
    names = {await chat.player_id(n): n for n in PLAYERS}
    for _ in range(30):
        state = await chat.tournament()
        ready = sorted(
            (m for m in state.matches.values() if m.is_ready and not m.is_final),
            key=lambda m: m.number,
        )
        won = {
            m.winner: m
            for m in state.stage_matches(Stage.KNOCKOUT)
            if m.is_final and m.winner is not None
        }
        chosen = [m for m in ready if m.round_name == round_name and m.black in won]
        if chosen:
            match = chosen[0]
            break
        await chat.say("ana", f"/result {ready[0].number} {ready[0].length}-1")
    assert match.black is not None
    forfeiter = names[match.black]
    victim = names[next(p for p in won[match.black].players if p != match.black)]
    await chat.say("ana", f'/forfeit {forfeiter} reason:"left the venue"')
    response = await chat.response("ana", "/bracket")
    assert response is not None
    return match, victim, forfeiter, response


def _row(chat: Chat, response: Response, match: Match) -> str:
    text = chat.text(response)
    return next(line for line in text.splitlines() if line.split()[:1] == [str(match.number)])


async def test_the_player_who_steps_in_is_named_in_the_forfeiters_place_HGV_2_3_8(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    match, victim, forfeiter, response = await _forfeit_in(chat, "semi_final")
    row = _row(chat, response, match)
    assert f"{victim} (in place of {forfeiter})" in row, row
    assert f"{victim} (bye)" not in row, row


async def test_a_play_in_loser_who_steps_in_has_no_bye_badge_HGV_2_3_8(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    match, victim, forfeiter, response = await _forfeit_in(chat, "quarter_final")
    assert f"{victim} (in place of {forfeiter})" in _row(chat, response, match)
    (drawn,) = [p.view for p in response.reply.parts if isinstance(p, Picture)]
    assert isinstance(drawn, BracketView)
    (shown,) = [m for s in drawn.sections for m in s.matches if m.number == match.number]
    assert shown.white.bye and not shown.black.bye, shown  # white came by a bye, black did not


async def test_a_last_chance_left_with_one_player_is_called_off_at_its_table_HGV_2_3_8_HGV_7_4_13(
    engine: AsyncEngine,
) -> None:
    """Six players in two groups of three all go through: the play-in losers, carmen and
    rocio, were called to the Last Chance final. carmen, who beat teresa in the play-in,
    left before her semi-final: teresa took her place, and the Last Chance, one player
    short, was voided without a word while rocio waited at its table."""
    chat = Chat(engine)
    players = ("jan", "ola", "piotr", "kasia", "tomek", "zosia")
    await chat.night(*players)
    chat.at("2026-01-31T20:05")
    names = {await chat.player_id(n): n for n in players}
    for _ in range(20):
        state = await chat.tournament()
        semis = [m for m in state.stage_matches(Stage.KNOCKOUT) if m.round_name == "semi_final"]
        if semis and all(len(m.players) == 2 for m in semis):
            break
        ready = sorted(
            (m for m in state.matches.values() if m.is_ready and not m.is_final),
            key=lambda m: m.number,
        )
        await chat.say("ana", f"/result {ready[0].number} {ready[0].length}-1")
    (last_chance,) = [m for m in state.stage_matches(Stage.CONSOLATION) if m.start is not None]
    play_in = next(m for m in state.stage_matches(Stage.KNOCKOUT) if m.round_name == "play_in")
    assert play_in.winner is not None and len(last_chance.players) == 2
    leaver = names[play_in.winner]
    before = len(chat.posted)
    await chat.say("ana", f'/forfeit {leaver} reason:"left the venue"')
    said = "\n".join(text for _, text in chat.posted[before:])
    state = await chat.tournament()
    assert state.matches[last_chance.number].status is MatchStatus.VOID
    white, black = (names[p] for p in last_chance.players)
    assert "The Last Chance is not played" in said, said
    assert f"Match {last_chance.number}, {white} v {black}, is off." in said, said
