"""How a tournament moves on: the draw, extra games, the knockout, the finish.

`settle` is called after every change that can finish a match; it starts the knockout
when the last group match is final (INTERFACE: "the knockout stage starts by itself"),
fills bracket slots as winners emerge, and finishes the tournament with placements and
ranking points when the last match is final.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from itertools import combinations
from typing import cast

from tournament import knockout, placements
from tournament.draw import DrawInputs, draw_groups, fingerprint
from tournament.entry import youngest_and_veteran
from tournament.events import (
    Event,
    ExtraGamesScheduled,
    GroupsDrawn,
    KnockoutStarted,
    MatchReady,
    TournamentFinished,
)
from tournament.model import EntryStatus, PlayerId, Refused, Result, Stage, TournamentStatus
from tournament.ranking import Performance, tournament_points
from tournament.round_robin import round_robin
from tournament.standings import Standings, group_standings
from tournament.state import DrawRecord, Group, Match, Placement, TournamentState, minutes

GROUP_STAGES = (Stage.GROUP, Stage.TIEBREAK)
MAIN_STAGES = (Stage.KNOCKOUT, Stage.THIRD_PLACE)


def draw(
    state: TournamentState, ranking: Sequence[PlayerId], at: datetime, *, seed: int | None = None
) -> list[Event]:
    """Draw the groups and publish their round robins (HGV-7.2.1, NAV-I, HGV-2.3.4)."""
    if state.status is not TournamentStatus.REGISTRATION:
        raise Refused("already_drawn", tournament=state.name)
    players = [
        p for p in state.playing() if state.entries[p].confirmed or state.entries[p].checked_in
    ]
    if len(players) < 2:
        raise Refused("too_few_players", count=len(players), minimum=2)
    for entry in state.entries.values():
        # Neither confirmed nor here: they are not drawn, and owe nothing (HGV-2.3.6).
        if entry.status is EntryStatus.ACTIVE and entry.player not in players:
            entry.status = EntryStatus.WITHDRAWN
            entry.withdrawn_at = at
    seed = state.seed if seed is None else seed
    inputs = DrawInputs(
        method=state.preset.groups.method,
        players=tuple(players),
        ranking=tuple(ranking),
        group_size=state.preset.groups.size,
        seed=seed,
    )
    result = draw_groups(inputs)
    state.draw = DrawRecord(
        method=inputs.method,
        seed=seed,
        fingerprint=fingerprint(inputs),
        ranking=inputs.ranking,
        players=inputs.players,
        at=at,
    )
    for position, player in enumerate(result.seeding, 1):
        state.entries[player].seed = position
    state.groups = [Group(str(i), players) for i, players in enumerate(result.groups, 1)]
    start = max(state.start, at)
    rules = state.preset.groups
    scheduled = [
        (pairing.round, index, order, group.name, pairing)
        for index, group in enumerate(state.groups)
        for order, pairing in enumerate(round_robin(group.players, start, rules.round_minutes))
    ]
    number = state.next_match_number()
    for round_, _, _, group_name, pairing in sorted(scheduled, key=lambda s: s[:3]):
        state.matches[number] = Match(
            number=number,
            stage=Stage.GROUP,
            round=round_,
            length=rules.match_length,
            white=pairing.white,
            black=pairing.black,
            start=pairing.start,
            group=group_name,
            created_at=at,
        )
        number += 1
    state.status = TournamentStatus.GROUPS
    events: list[Event] = [
        GroupsDrawn(at=at, groups=len(state.groups), matches=len(scheduled), seed=seed)
    ]
    return events + settle(state, at)


def standings_of(state: TournamentState, group: Group) -> Standings:
    """Return a group's standings from its final matches, extra games included."""
    return all_standings(state, [group])[group.name]


def all_standings(
    state: TournamentState, groups: Sequence[Group] | None = None
) -> dict[str, Standings]:
    """Return the standings of every group (or of `groups`), reading the matches once."""
    groups = state.groups if groups is None else groups
    wanted = {group.name for group in groups}
    results: dict[str, list[Result]] = {name: [] for name in wanted}
    extra: dict[str, list[Result]] = {name: [] for name in wanted}
    for match in state.matches.values():
        if match.stage not in GROUP_STAGES or match.group not in wanted:
            continue
        result = match.result()
        if result is not None:
            (extra if match.stage is Stage.TIEBREAK else results)[match.group].append(result)
    tables: dict[str, Standings] = {}
    for group in groups:
        inputs = (tuple(results[group.name]), tuple(extra[group.name]))
        remembered = state.memo.get(f"standings:{group.name}")
        if remembered is not None and remembered[0] == inputs:
            tables[group.name] = cast(Standings, remembered[1])
            continue
        table = group_standings(
            group.players,
            results[group.name],
            state.preset.groups,
            lot_seed=state.seed + int(group.name),
            extra_game_results=extra[group.name],
        )
        state.memo[f"standings:{group.name}"] = (inputs, table)
        tables[group.name] = table
    return tables


def settle(state: TournamentState, at: datetime) -> list[Event]:
    """Move the tournament on as far as its final results allow."""
    events: list[Event] = []
    if state.status is TournamentStatus.GROUPS:
        if any(not m.is_final for m in state.matches.values() if m.stage in GROUP_STAGES):
            return events
        tables = all_standings(state)
        extra = _schedule_extra_games(state, tables, at)
        if extra:
            return extra
        events.extend(_start_knockout(state, tables, at))
    if state.status is TournamentStatus.KNOCKOUT:
        events.extend(_advance(state, at))
    return events


def followed_up(state: TournamentState, match: Match) -> bool:
    """Return whether a match fed by this one's result has already been played."""
    return any(
        match.key is not None
        and match.key in (other.white_from, other.black_from)
        and (other.is_final or other.report is not None or other.games)
        for other in state.matches.values()
    )


def bracket_of(state: TournamentState, stages: Sequence[Stage]) -> knockout.Bracket | None:
    """Rebuild a bracket from its stored matches."""
    matches = [m for m in state.stage_matches(*stages) if m.key is not None]
    if not matches:
        return None
    return knockout.Bracket(
        stage=stages[0],
        seeds=(),
        matches=tuple(
            knockout.BracketMatch(
                key=m.key or "",
                stage=m.stage,
                round=m.round,
                round_name=m.round_name or "",
                index=m.index,
                length=m.length,
                white=m.white,
                black=m.black,
                white_from=m.white_from,
                black_from=m.black_from,
            )
            for m in matches
        ),
    )


def winners(state: TournamentState, stages: Sequence[Stage]) -> dict[str, PlayerId]:
    """Return the winner of every decided bracket match, by key."""
    return {
        m.key: m.winner
        for m in state.stage_matches(*stages)
        if m.key is not None and m.is_final and m.winner is not None
    }


def _schedule_extra_games(
    state: TournamentState, tables: dict[str, Standings], at: datetime
) -> list[Event]:
    events: list[Event] = []
    rules = state.preset.groups
    for group in state.groups:
        for need in tables[group.name].extra_games:
            last_round = max(
                (m.round for m in state.stage_matches(*GROUP_STAGES) if m.group == group.name),
                default=0,
            )
            numbers = []
            for white, black in combinations(need.players, 2):
                number = state.next_match_number()
                state.matches[number] = Match(
                    number=number,
                    stage=Stage.TIEBREAK,
                    round=last_round + 1,
                    length=rules.tiebreak_game_length,
                    white=white,
                    black=black,
                    start=at,
                    group=group.name,
                    created_at=at,
                )
                numbers.append(number)
            events.append(
                ExtraGamesScheduled(
                    at=at, group=group.name, players=need.players, matches=tuple(numbers)
                )
            )
    return events


def qualifiers_of(state: TournamentState, table: Standings) -> list[PlayerId]:
    """Return who a group's table sends to the knockout, best first (HGV-7.1)."""
    return _qualifiers(state, table)


def _qualifiers(state: TournamentState, table: Standings) -> list[PlayerId]:
    active = [
        row.player
        for row in table.rows
        if not row.removed and state.entries[row.player].status is EntryStatus.ACTIVE
    ]
    return active[: state.preset.groups.qualifiers]


def _start_knockout(
    state: TournamentState, tables: dict[str, Standings], at: datetime
) -> list[Event]:
    qualifiers = [_qualifiers(state, tables[group.name]) for group in state.groups]
    played = {
        frozenset(m.players) for m in state.stage_matches(Stage.GROUP) if len(m.players) == 2
    }
    bracket = knockout.build_bracket(qualifiers, played, state.preset.knockout)
    state.status = TournamentStatus.KNOCKOUT
    _add_bracket(state, bracket, at)
    if not bracket.matches:
        return []  # a lone qualifier is champion without a knockout (see _finish)
    return [
        KnockoutStarted(at=at, qualifiers=sum(map(len, qualifiers)), matches=len(bracket.matches))
    ]


def _add_bracket(state: TournamentState, bracket: knockout.Bracket, at: datetime) -> None:
    number = state.next_match_number()
    for bm in sorted(bracket.matches, key=lambda b: (b.round, b.stage != Stage.KNOCKOUT, b.index)):
        state.matches[number] = Match(
            number=number,
            stage=bm.stage,
            round=bm.round,
            length=bm.length,
            white=bm.white,
            black=bm.black,
            start=None,
            key=bm.key,
            round_name=bm.round_name,
            index=bm.index,
            white_from=bm.white_from,
            black_from=bm.black_from,
            created_at=at,
        )
        number += 1


def _advance(state: TournamentState, at: datetime) -> list[Event]:
    events: list[Event] = []
    if state.preset.knockout.consolation and not state.stage_matches(Stage.CONSOLATION):
        _maybe_start_consolation(state, at)
    bracket = [m for m in state.matches.values() if m.key is not None]
    by_key = {m.key: m for m in bracket}
    for match in sorted(bracket, key=lambda m: m.number):
        if not match.is_final and not match.games and match.report is None:
            # The stored bracket: a side names the match whose winner (or, for the
            # third place, loser) fills it; a replaced side (HGV-2.3.8) names none.
            match.white = _fed(match, match.white, match.white_from, by_key)
            match.black = _fed(match, match.black, match.black_from, by_key)
        if match.start is None and match.white is not None and match.black is not None:
            match.start = at + minutes(state.preset.knockout.break_minutes)
            match.created_at = at  # its schedule is published now: no reminder before
            events.append(
                MatchReady(
                    at=at,
                    match=match.number,
                    white=match.white,
                    black=match.black,
                    start=match.start,
                    round_name=match.round_name or "",
                )
            )
    if _all_done(state):
        events.extend(_finish(state, at))
    return events


def _fed(
    match: Match, current: PlayerId | None, source: str | None, by_key: dict[str | None, Match]
) -> PlayerId | None:
    if source is None:
        return current
    feeder = by_key[source]
    if not feeder.is_final or feeder.winner is None:
        return None
    if match.stage is Stage.THIRD_PLACE:
        return feeder.opponent_of(feeder.winner)
    return feeder.winner


def _maybe_start_consolation(state: TournamentState, at: datetime) -> None:
    play_ins = [m for m in state.stage_matches(Stage.KNOCKOUT) if m.round_name == "play_in"]
    if any(not m.is_final for m in play_ins):
        return
    in_bracket = {p for m in state.stage_matches(*MAIN_STAGES) for p in m.players}
    play_in_losers = [
        p for m in play_ins for p in m.players if p != m.winner and m.winner is not None
    ]
    others: list[PlayerId] = []
    tables = list(all_standings(state).values())
    depth = max((len(t.rows) for t in tables), default=0)
    for position in range(depth):
        for table in tables:
            if position >= len(table.rows):
                continue
            row = table.rows[position]
            entry = state.entries[row.player]
            if row.removed or entry.status is not EntryStatus.ACTIVE:
                continue
            if row.player not in in_bracket:
                others.append(row.player)
    players = play_in_losers + others
    played = {frozenset(m.players) for m in state.stage_matches(Stage.GROUP)}
    bracket = knockout.build_consolation(players, played, state.preset.knockout)
    if bracket is not None:
        _add_bracket(state, bracket, at)


def _all_done(state: TournamentState) -> bool:
    """Return whether every bracket match has a winner (a double forfeit waits)."""
    return all(m.is_final and m.winner is not None for m in state.matches.values() if m.key)


def _finish(state: TournamentState, at: datetime) -> list[Event]:
    main = bracket_of(state, MAIN_STAGES)
    main_winners = winners(state, MAIN_STAGES)
    places: dict[PlayerId, int] = {}
    if main is not None:
        places = {player: place for place, player in placements.placements(main, main_winners)}
    drawn = [p for g in state.groups for p in g.players]
    if main is None and len(drawn) >= 1:
        # A single qualifier is champion without a knockout match.
        qualifiers = [q for t in all_standings(state).values() for q in _qualifiers(state, t)]
        if len(qualifiers) == 1:
            places[qualifiers[0]] = 1
    unplaced_place = max(places.values(), default=0) + 1
    consolation = bracket_of(state, (Stage.CONSOLATION,))
    finalists = (
        set(placements.finalists(consolation, winners(state, (Stage.CONSOLATION,))))
        if consolation is not None
        else set()
    )
    group_wins = {
        row.player: row.won
        for table in all_standings(state).values()
        for row in table.rows
        if not row.removed
    }
    knockout_wins: dict[PlayerId, int] = {}
    consolation_wins: dict[PlayerId, int] = {}
    for match in state.matches.values():
        if match.winner is None or not match.is_final:
            continue
        if match.stage in MAIN_STAGES:
            knockout_wins[match.winner] = knockout_wins.get(match.winner, 0) + 1
        elif match.stage is Stage.CONSOLATION:
            consolation_wins[match.winner] = consolation_wins.get(match.winner, 0) + 1
    state.placements = []
    for player in drawn:
        entry = state.entries[player]
        if entry.status is EntryStatus.NO_SHOW:
            continue
        place = places.get(player)
        if place is None and entry.status is EntryStatus.ACTIVE and not entry.knockout_forfeit:
            place = unplaced_place
        performance = Performance(
            player=player,
            place=place,
            group_wins=group_wins.get(player, 0),
            knockout_wins=knockout_wins.get(player, 0),
            consolation_finalist=player in finalists,
            knockout_forfeit=entry.knockout_forfeit,
            consolation_wins=consolation_wins.get(player, 0),
        )
        points = tournament_points(state.preset.ranking, performance)
        state.placements.append(Placement(place=place, player=player, points=f"{points:.2f}"))
    state.placements.sort(key=lambda p: (p.place is None, p.place or 0, -float(p.points)))
    state.status = TournamentStatus.FINISHED
    state.finished_at = at
    champion = next((p.player for p in state.placements if p.place == 1), None)
    rules = state.preset.entry
    youngest, veterans = youngest_and_veteran(
        {p.player: state.entries[p.player].born for p in state.placements}
    )
    return [
        TournamentFinished(
            at=at,
            champion=champion,
            youngest=youngest if rules.youngest_prize else (),
            veterans=veterans if rules.veteran_prize else (),
        )
    ]
