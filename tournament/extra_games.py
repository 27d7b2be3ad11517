"""Ties in a group broken by extra games (scheduled, voided when stale) or by lot."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import cast

from tournament.events import (
    Event,
    ExtraGamesScheduled,
    ExtraGamesVoided,
)
from tournament.model import (
    FINAL_STATUSES,
    MatchStatus,
    Stage,
)
from tournament.round_robin import pairings_of
from tournament.stages import (
    GROUP_STAGES,
    STAGE_FACTS,
    changed_groups,
    group_table,
    restart,
    stage_context,
    stage_facts,
)
from tournament.standings import Standings
from tournament.state import Group, Match, Span, TournamentState, minutes


def schedule_extra_games(
    state: TournamentState, tables: dict[str, Standings], at: datetime
) -> list[Event]:
    """Schedule the extra games a level block needs (NAV-TIE), one game per player at once.

    The games are a round robin among the tied players in rounds of the preset's extra
    game time, so in a three-way tie nobody has two games at the same time. A block that
    played extra games before and is still level gets another round, and the event says
    so: a director may then settle it by lot (`settle_by_lot`). After a round nobody
    played (both absent), the next one's lateness clocks stand until a director acts.
    """
    events: list[Event] = []
    rules = state.preset.groups
    step = minutes(rules.tiebreak_game_minutes)
    for group in state.groups:
        if group.name not in tables:
            continue  # still playing its group matches
        for need in tables[group.name].extra_games:
            index = state.indexed()
            tied = set(need.players)
            before = [m for m in index.group(group.name, Stage.TIEBREAK) if set(m.players) <= tied]
            again = bool(before)
            # Both players absent from every game of the last round (double forfeits by
            # lateness): another round would go the same way every few minutes, all night.
            # Its clocks stand from the start until a director settles it (or resumes).
            counted = [m for m in before if m.status is not MatchStatus.VOID]
            last = max((m.round for m in counted), default=None)
            unplayed = last is not None and all(
                m.status is MatchStatus.DOUBLE_FORFEIT for m in counted if m.round == last
            )
            last_round = max((m.round for m in index.group(group.name, *GROUP_STAGES)), default=0)
            numbers = []
            # `round_robin`'s games, read as (round, white, black) without a Pairing each.
            pairings = pairings_of(need.players, at, rules.tiebreak_game_minutes)
            number = state.next_match_number()
            for round_, white, black in pairings:
                state.matches[number] = Match(
                    number=number,
                    stage=Stage.TIEBREAK,
                    round=last_round + round_,
                    length=rules.tiebreak_game_length,
                    white=white,
                    black=black,
                    start=at + (round_ - 1) * step,
                    group=group.name,
                    created_at=at,
                    pauses=[Span(start=at)] if unplayed else [],
                )
                numbers.append(number)
                number += 1
            events.append(
                ExtraGamesScheduled(
                    at=at,
                    group=group.name,
                    players=need.players,
                    matches=tuple(numbers),
                    again=again,
                    paused=unplayed,
                )
            )
    return events


def void_stale_extra_games(
    state: TournamentState, at: datetime, *, facts: list[tuple[object, ...]] | None = None
) -> list[Event]:
    """Void the extra games a correction has made unnecessary (NAV-TIE).

    Extra games come in rounds: all the games among one level block, scheduled
    together. A round counts only while the group matches and the rounds before it
    leave that block level; the games of a round that is no longer needed are voided.
    Played ones too: voiding an extra game gives nobody another opponent, it only stops
    counting a game the standings no longer call for.

    What was looked at is remembered with its facts (after which nothing was left to
    void): a group whose facts did not change is skipped. Given `facts`
    (`stage_facts(state)`, just read: after the group stage, when they mostly stay as
    they were), the whole group stage is compared at once; else each group with extra
    games is compared on its own (fewer facts while the groups still play).
    """
    index = state.indexed()
    if all(m.status is MatchStatus.VOID for m in index.stage(Stage.TIEBREAK)):
        return []
    context = None if facts is None else stage_context(state)
    changed: set[object] | None = None  # None: look at every group
    if facts is not None:
        remembered = state.memo.get("extra")
        if remembered is not None:
            before_context, before = cast(tuple[object, list[tuple[object, ...]]], remembered[0])
            if before_context is context:
                if before is facts or before == facts:
                    return []
                changed = changed_groups(before, facts)
    voided: dict[str, list[int]] = {}
    for group in state.groups:
        if changed is not None and group.name not in changed:
            continue
        games = index.by_group.get((Stage.TIEBREAK, group.name), [])
        if not games:
            continue  # no extra games: nothing to void
        own = index.by_group.get((Stage.GROUP, group.name), [])
        key = "extra:" + group.name
        if facts is None:
            inputs = _group_facts(state, group, own, games)
            remembered = state.memo.get(key)
            if remembered is not None and remembered[0] == inputs:
                continue
        if any(not m.is_final for m in own):
            continue  # a reopened group match: its extra games wait for its result
        kept: list[Match] = []
        for batch in _rounds(games):
            if all(m.status is MatchStatus.VOID for m in batch):
                continue  # a round voided before
            table = group_table(state, group, own, kept)
            block = {p for m in batch for p in m.players}
            if any(set(need.players) == block for need in table.extra_games):
                # Counted once final, as the standings count them (`all_standings`).
                kept.extend(m for m in batch if m.status in FINAL_STATUSES)
                continue
            for match in batch:
                if match.status is not MatchStatus.VOID:
                    voided.setdefault(group.name, []).append(match.number)
                    restart(state, match, at)
                    match.status = MatchStatus.VOID
                    match.finished_at = at
        if facts is None:
            state.memo[key] = (_group_facts(state, group, own, games), None)
    if facts is None:
        return _voided(voided, at)
    if voided:
        facts = stage_facts(state)
    state.memo["extra"] = ((context, facts), None)
    return _voided(voided, at)


def _group_facts(
    state: TournamentState, group: Group, own: Sequence[Match], games: Sequence[Match]
) -> tuple[object, ...]:
    """Return what the check of one group's extra games reads."""
    context = (state.preset.groups, state.seed, group.players)
    return (context, tuple(map(STAGE_FACTS, own)), tuple(map(STAGE_FACTS, games)))


def _voided(voided: dict[str, list[int]], at: datetime) -> list[Event]:
    return [
        ExtraGamesVoided(at=at, group=group, matches=tuple(numbers))
        for group, numbers in voided.items()
    ]


def _rounds(games: Sequence[Match]) -> list[list[Match]]:
    """Split a group's extra games, by number, into the rounds they were scheduled in.

    A round is every pairing of one block of tied players, scheduled together (at one
    `created_at`): the longest run of consecutive games scheduled together that is a
    complete round robin of its players. A void game of an earlier round is never
    taken for part of a later one.
    """
    rounds: list[list[Match]] = []
    start = 0
    for end in range(1, len(games) + 1):
        if end == len(games) or games[end].created_at != games[start].created_at:
            rounds.extend(_round_robins(games[start:end]))
            start = end
    return rounds


def _round_robins(games: Sequence[Match]) -> list[list[Match]]:
    """Split games scheduled together into complete round robins, longest first."""
    rounds: list[list[Match]] = []
    i = 0
    while i < len(games):
        size = 1
        # The largest round robin first: usually the games left are one.
        largest = 2
        while (largest + 1) * largest // 2 <= len(games) - i:
            largest += 1
        for k in range(largest, 1, -1):
            count = k * (k - 1) // 2
            run = games[i : i + count]
            players = {p for m in run for p in m.players}
            pairs = {frozenset(m.players) for m in run}
            if len(players) == k and len(pairs) == count:
                size = count
                break
        rounds.append(list(games[i : i + size]))
        i += size
    return rounds


def open_ties(state: TournamentState) -> list[str]:
    """Return the groups whose tie waits for extra games, which a lot may settle (NAV-TIE)."""
    return sorted(
        {m.group for m in state.indexed().stage(Stage.TIEBREAK) if not m.is_final and m.group}
    )
