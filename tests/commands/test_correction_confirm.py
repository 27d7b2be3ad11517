"""Destructive corrections ask first and say what they undo (issue 15.17, HGV-4.8)."""

from __future__ import annotations

import copy
import re
from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncEngine

from tests.commands.chat import Chat
from tests.commands.playing import play_to_the_end
from tournament import corrections, progress
from tournament.model import MatchStatus, Refused, Stage, TournamentStatus
from tournament.scoring import FinalScore
from tournament.state import TournamentState


async def groups_by_director(chat: Chat) -> TournamentState:
    """The director types every group result, white winning; return the state after."""
    state = await chat.tournament()
    while state.status is TournamentStatus.GROUPS:
        match = min(
            (m for m in state.matches.values() if m.is_ready and not m.is_final),
            key=lambda m: m.number,
        )
        await chat.say("ana", f"/result {match.number} {match.length}-0")
        state = await chat.tournament()
    return state


async def ready_played(chat: Chat, *players: str) -> TournamentState:
    """A night whose group stage, and the knockout matches then ready, the director
    played (white winning)."""
    await chat.night(*players)
    chat.at("2026-01-31T20:05")
    state = await groups_by_director(chat)
    for match in [m for m in state.matches.values() if m.is_ready and not m.is_final]:
        await chat.say("ana", f"/result {match.number} {match.length}-0")
    return await chat.tournament()


def contradicting(
    state: TournamentState, at: datetime, *, black_wins: bool = False
) -> list[tuple[int, FinalScore, tuple[int, ...]]]:
    """Return the group matches which, reopened and given a score, would give a played
    knockout match other players: (match, score, the knockout matches)."""
    found_all = []
    for group in state.stage_matches(Stage.GROUP):
        trial = copy.deepcopy(state)
        corrections.correct(trial, group.number, "reopen", at, confirmed=True)
        scores = [FinalScore(0, group.length)]
        if not black_wins:
            scores.append(FinalScore(group.length, 0))
        for score in scores:
            found = corrections.open_conflicts(trial, group.number, score, at)
            if found:
                found_all.append((group.number, score, found))
    return found_all


async def test_reopening_a_finished_final_asks_for_confirm_and_says_what_it_undoes_HGV_4_8(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora", "eva")
    chat.at("2026-01-31T20:05")
    await play_to_the_end(chat)
    state = await chat.tournament()
    final = next(m for m in state.stage_matches(Stage.KNOCKOUT) if m.round_name == "final")
    champion = next(p.player for p in state.placements if p.place == 1)
    names = {await chat.player_id(n): n for n in ("bob", "cruz", "dora", "eva")}
    reply = await chat.say("ana", f"/reopen {final.number}")
    assert "takes back the final placements and ranking points of January Cup" in reply
    assert f"(champion: {names[champion]})" in reply
    assert f"To go ahead: /reopen {final.number} confirm" in reply
    after = await chat.tournament()
    assert after.status is TournamentStatus.FINISHED and after.placements == state.placements
    reply = await chat.say("ana", f"/reopen {final.number} confirm")
    assert f"Match {final.number} is reopened" in reply
    assert (await chat.tournament()).status is TournamentStatus.KNOCKOUT


async def test_a_reopened_group_result_that_undoes_a_played_knockout_match_asks_HGV_4_8(
    engine: AsyncEngine,
) -> None:
    """Issue 15.1: /reopen of a group match once knockout matches were played holds
    the bracket; its new result, if it seeds someone else into a played match, is
    asked for with confirm and says which matches start afresh."""
    chat = Chat(engine)
    state = await ready_played(chat, "bob", "cruz", "dora", "eva", "finn")
    number, score, found = contradicting(state, chat.now)[0]
    reply = await chat.say("ana", f"/reopen {number} confirm")
    assert f"Match {number} is reopened" in reply
    reply = await chat.say("ana", f"/result {number} {score.white}-{score.black}")
    listed = ", ".join(map(str, found))
    assert f"already under way or played: {listed}" in reply, reply
    assert f"/result {number} {score.white}-{score.black} confirm" in reply
    assert not (await chat.tournament()).matches[number].is_final  # nothing changed
    reply = await chat.say("ana", f"/result {number} {score.white}-{score.black} confirm")
    after = await chat.tournament()
    assert after.matches[number].is_final
    assert all(after.matches[n].status is MatchStatus.SCHEDULED for n in found)
    assert any(f"Match {found[0]} starts afresh" in text for _, text in chat.posted)


async def test_status_lists_the_knockout_matches_a_reopened_group_holds_HGV_4_8(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora", "eva", "finn", "gus")
    chat.at("2026-01-31T20:05")
    state = await groups_by_director(chat)
    group = state.stage_matches(Stage.GROUP)[0]
    reopened = await chat.say("ana", f"/reopen {group.number}")
    held = sorted(progress.held(await chat.tournament()))
    assert held
    status = await chat.say("ana", "/status")
    listed = ", ".join(map(str, held))
    assert f"Waiting for group {group.group} to be complete again ({len(held)})" in status
    assert f"matches {listed}." in status
    # The announcement names the matches it holds, in the number they are.
    said = re.search(r"(Match|Matches) ([\d, ]+) (waits|wait) until group", reopened)
    assert said is not None, reopened
    one = len(said.group(2).split(", ")) == 1
    assert (said.group(1), said.group(3)) == (("Match", "waits") if one else ("Matches", "wait"))


async def test_a_final_started_afresh_names_the_matches_that_send_its_players_HGV_4_8(
    engine: AsyncEngine,
) -> None:
    """A group correction after the final undoes the semi-finals and the final: the final
    starts afresh between "winner of 6" and "winner of 7", not between "?" and "?"."""
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora", "eva", "finn")
    chat.at("2026-01-31T20:05")
    await play_to_the_end(chat)
    state = await chat.tournament()
    final = next(m for m in state.stage_matches(Stage.KNOCKOUT) if m.round_name == "final")
    for group in state.stage_matches(Stage.GROUP):
        trial = copy.deepcopy(state)
        score = FinalScore(group.black_score, group.white_score)  # the other way round
        try:
            events = corrections.correct(trial, group.number, score, chat.now, confirmed=True)
        except Refused:  # a correction the rules refuse is not the one
            continue
        if trial.matches[final.number].white is None:
            break
    else:
        raise AssertionError("no group correction sends the final back to its feeders")
    assert events
    said = await chat.say(
        "ana", f'/result {group.number} {score.white}-{score.black} confirm reason:"sheet"'
    )
    assert f"Match {final.number} starts afresh: winner of " in said, said
    assert "starts afresh: ? v ?" not in said, said


async def test_a_confirmation_for_a_named_tournament_names_it_HGV_4_8(
    engine: AsyncEngine,
) -> None:
    """January is over and February open: /reopen N tournament:"January Cup" asks, and the
    line to confirm names January; a bare "/reopen N confirm" means February."""
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora", "eva")
    chat.at("2026-01-31T20:05")
    await play_to_the_end(chat)
    final = next(
        m
        for m in (await chat.tournament()).stage_matches(Stage.KNOCKOUT)
        if m.round_name == "final"
    )
    await chat.say(
        "ana", '/tournament new name:"February Cup" start:"2026-02-28 20:00" approval:no'
    )
    reply = await chat.say("ana", f'/reopen {final.number} tournament:"january cup"')
    command = f'/reopen {final.number} tournament:"January Cup" confirm'
    assert f"To go ahead: {command}" in reply, reply
    done = await chat.say("ana", command)
    assert f"Match {final.number} is reopened" in done, done


async def test_a_voided_knockout_match_tells_the_director_it_needs_a_winner_HGV_4_8(
    engine: AsyncEngine,
) -> None:
    """A semi-final voided the next day ("they did not really play") left its final
    "bob v winner of 5" for ever; /status said nothing was pending, and the night never
    ended. The club and /status now say the bracket waits for a winner, and how to give
    one; the director's /result then lets the final be played."""
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora", "eva")
    chat.at("2026-01-31T20:05")
    state = await groups_by_director(chat)
    semi = min(
        (m for m in state.stage_matches(Stage.KNOCKOUT) if m.is_ready), key=lambda m: m.number
    )
    await chat.say("ana", f"/result {semi.number} {semi.length}-1")
    reply = await chat.say("ana", f'/result {semi.number} void reason:"not really played"')
    assert f"Match {semi.number} is void" in reply, reply
    assert (
        f"Match {semi.number} is in the knockout and now has no winner: the match it feeds"
        f" waits for one. Director: /result {semi.number} {semi.length}-"
    ) in reply, reply
    assert f"/reopen {semi.number} has it played again." in reply, reply
    glance = await chat.say("ana", "/status")
    assert "No winner (1): the knockout waits for these" in glance, glance
    assert f"or have it played again: /reopen {semi.number}." in glance, glance
    await chat.say("ana", f'/result {semi.number} {semi.length}-0 reason:"checked"')
    assert "No winner" not in await chat.say("ana", "/status")
    await play_to_the_end(chat)
    assert (await chat.tournament()).status is TournamentStatus.FINISHED


async def test_a_final_voided_unplayed_says_the_tournament_waits_for_a_winner_HGV_4_8(
    engine: AsyncEngine,
) -> None:
    """February's final was never played (the finalists went home); in March the director
    voided it: "Match 7 is void and does not count (was -). Match 7 is in the knockout
    and now has no winner: the match it feeds waits for one." A final feeds no match,
    and "-" was no score."""
    chat = Chat(engine)
    await chat.night("bob", "cruz", "dora", "eva")
    chat.at("2026-01-31T20:05")
    state = await groups_by_director(chat)
    for semi in (m for m in state.stage_matches(Stage.KNOCKOUT) if m.is_ready):
        await chat.say("ana", f"/result {semi.number} {semi.length}-1")
    state = await chat.tournament()
    (final,) = (m for m in state.stage_matches(Stage.KNOCKOUT) if m.round_name == "final")
    assert final.is_ready and not final.is_final
    reply = await chat.say("ana", f'/result {final.number} void reason:"went home"')
    assert reply.startswith(f"Match {final.number} is void and does not count.\n"), reply
    assert (
        f"Match {final.number} is in the knockout and now has no winner: January Cup cannot"
        f" finish without one. Director: /result {final.number} {final.length}-"
    ) in reply, reply
    assert "(was" not in reply and "the match it feeds" not in reply, reply


async def test_status_shows_a_played_match_a_reported_group_result_contradicts_HGV_4_8(
    engine: AsyncEngine,
) -> None:
    """A reopened group match reported and accepted by its players (no director to
    confirm) can seed others into a knockout match already played: the knockout then
    stands still, and /status says where and how to go on until a director decides."""
    players = ("bob", "cruz", "dora", "eva", "finn")
    chat = Chat(engine)
    state = await ready_played(chat, *players)
    number, _score, found = contradicting(state, chat.now, black_wins=True)[0]
    group = state.matches[number]
    names = {await chat.player_id(n): n for n in players}
    assert group.white is not None and group.black is not None
    await chat.say("ana", f"/reopen {group.number} confirm")
    reported = await chat.say(names[group.black], f"/report {group.length}-0")
    assert "recorded" in reported, reported
    assert "wins" in await chat.say(names[group.white], "/accept")
    status = await chat.say("ana", "/status")
    assert "players the results no longer give" in status, status
    assert f"/reopen {found[0]}" in status, status
    assert f"Match {found[0]}:" in status, status
    await chat.say("ana", f"/reopen {found[0]} confirm")
    assert "results no longer give" not in await chat.say("ana", "/status")
