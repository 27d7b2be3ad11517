"""How a tournament moves on: the draw, extra games, the knockout, the finish.

`settle` is called after every change that can finish a match; it starts the knockout
when the last group match is final (INTERFACE: "the knockout stage starts by itself"),
fills bracket slots as winners emerge, and finishes the tournament with placements and
ranking points when the last match is final.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import datetime
from operator import attrgetter
from typing import cast

from tournament import knockout, placements
from tournament.draw import DrawInputs, draw_groups, fingerprint
from tournament.entry import youngest_and_veteran
from tournament.events import (
    Event,
    ExtraGamesScheduled,
    ExtraGamesVoided,
    GroupsDrawn,
    KnockoutStarted,
    MatchesHeld,
    MatchReady,
    MatchReset,
    PairingsConflict,
    PlacementsChanged,
    TieSettledByLot,
    TournamentFinished,
    TournamentReopened,
)
from tournament.model import (
    FINAL_STATUSES,
    EntryStatus,
    MatchStatus,
    PlayerId,
    Refused,
    Result,
    Stage,
    TournamentStatus,
)
from tournament.ranking import Performance, tournament_points
from tournament.round_robin import round_robin
from tournament.scoring import winning_score
from tournament.standings import Standings, group_standings
from tournament.state import DrawRecord, Group, Match, Placement, TournamentState, minutes

GROUP_STAGES = (Stage.GROUP, Stage.TIEBREAK)
# What a match's `result()` is made of: unchanged facts give an unchanged result.
RESULT_FACTS = attrgetter(
    "status", "white", "black", "white_score", "black_score", "winner", "forfeited_by"
)
PAIRING = attrgetter("white", "black")
# What an extra game's round (`_rounds`) and its counting depend on.
GAME_FACTS = attrgetter(
    "number",
    "created_at",
    "status",
    "white",
    "black",
    "white_score",
    "black_score",
    "winner",
    "forfeited_by",
)
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
    drawn = set(players)  # a list's `in` made the draw quadratic in the players
    for entry in state.entries.values():
        # Neither confirmed nor here: they are not drawn, and owe nothing (HGV-2.3.6).
        if entry.status is EntryStatus.ACTIVE and entry.player not in drawn:
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
    index = state.indexed()
    tables: dict[str, Standings] = {}
    for group in groups:
        played = index.by_group.get((Stage.GROUP, group.name), [])
        games = index.by_group.get((Stage.TIEBREAK, group.name), [])
        # Compared as plain facts (fast), not as the results built from them.
        inputs = (tuple(map(RESULT_FACTS, played)), tuple(map(RESULT_FACTS, games)))
        remembered = state.memo.get(f"standings:{group.name}")
        if remembered is not None and remembered[0] == inputs:
            tables[group.name] = cast(Standings, remembered[1])
            continue
        results = [r for m in played if (r := m.result())]
        extra = [r for m in games if (r := m.result())]
        table = group_standings(
            group.players,
            results,
            state.preset.groups,
            lot_seed=state.seed + int(group.name),
            extra_game_results=extra,
        )
        state.memo[f"standings:{group.name}"] = (inputs, table)
        tables[group.name] = table
    return tables


def settle(state: TournamentState, at: datetime, *, reset: bool = False) -> list[Event]:
    """Derive everything that follows from the final results, as far as they allow.

    Idempotent, and the one place a correction goes through too: stale extra games are
    voided and needed ones scheduled (NAV-TIE), the knockout starts or its pairings follow
    the corrected standings and winners, and placements and ranking points are computed,
    again after a correction, or withdrawn when the tournament is no longer complete. A
    pairing that would change on a match already under way or played is left as it is and
    listed in `PairingsConflict`, unless `reset` (a director confirmed): then that match
    starts afresh between the new players.
    """
    events: list[Event] = []
    if state.status in (TournamentStatus.REGISTRATION, TournamentStatus.CANCELLED):
        return events  # nothing drawn yet, or called off: nothing follows
    # Each group's tie is settled as soon as that group is over (NAV-TIE), not when
    # every group is: its extra games start while the other groups still play.
    events.extend(_void_stale_extra_games(state, at))
    index = state.indexed()
    open_groups = _open_groups(state)
    complete = [group for group in state.groups if group.name not in open_groups]
    complete_tables = all_standings(state, complete) if complete else {}
    if complete:
        before = index.size
        events.extend(_schedule_extra_games(state, complete_tables, at))
        if state.indexed().size != before:
            open_groups = _open_groups(state)  # the new extra games are still to play
    if open_groups:
        if state.status is not TournamentStatus.GROUPS:
            # A correction reopened the group stage after the knockout was drawn: the
            # bracket keeps its pairings, and the matches not yet played whose pairing
            # depends on an open group wait for it (`held`); nothing else is invented.
            events.extend(_hold(state, at))
            events.extend(_advance(state, at, reset=reset, finish=False))
        events.extend(_unfinish(state, at))
        return events
    # From here on the group stage is over and nothing below changes a group match or
    # an extra game: the standings read now hold for the rest of this settle.
    # Every group was complete before any extra game could be added: no game was added.
    tables = complete_tables
    if state.status is TournamentStatus.GROUPS:
        events.extend(_start_knockout(state, tables, at))
    else:
        events.extend(_reseed(state, tables, at, reset=reset))
    if any(isinstance(e, PairingsConflict) for e in events):
        # The results contradict a played pairing: nothing more is derived (no pairing,
        # no "Last Chance", no placements) until a director decides.
        return events
    events.extend(_advance(state, at, reset=reset, tables=tables))
    return events


def _open_groups(state: TournamentState) -> set[str | None]:
    """Return the groups with a group match or an extra game not yet final."""
    index = state.indexed()
    return {
        m.group
        for stage in GROUP_STAGES
        for m in index.stage(stage)
        if m.status not in FINAL_STATUSES
    }


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
    matches = [m for m in state.indexed().stage(*stages) if m.key is not None]
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
        for m in state.indexed().stage(*stages)
        if m.key is not None and m.is_final and m.winner is not None
    }


def _schedule_extra_games(
    state: TournamentState, tables: dict[str, Standings], at: datetime
) -> list[Event]:
    """Schedule the extra games a level block needs (NAV-TIE), one game per player at once.

    The games are a round robin among the tied players in rounds of the preset's extra
    game time, so in a three-way tie nobody has two games at the same time. A block that
    played extra games before and is still level gets another round, and the event says
    so: a director may then settle it by lot (`settle_by_lot`).
    """
    events: list[Event] = []
    rules = state.preset.groups
    for group in state.groups:
        if group.name not in tables:
            continue  # still playing its group matches
        for need in tables[group.name].extra_games:
            index = state.indexed()
            played = [
                m
                for m in index.group(group.name, Stage.TIEBREAK)
                if set(m.players) <= set(need.players)
            ]
            last_round = max((m.round for m in index.group(group.name, *GROUP_STAGES)), default=0)
            numbers = []
            pairings = round_robin(need.players, at, rules.tiebreak_game_minutes)
            for pairing in pairings:
                number = state.next_match_number()
                state.matches[number] = Match(
                    number=number,
                    stage=Stage.TIEBREAK,
                    round=last_round + pairing.round,
                    length=rules.tiebreak_game_length,
                    white=pairing.white,
                    black=pairing.black,
                    start=pairing.start,
                    group=group.name,
                    created_at=at,
                )
                numbers.append(number)
            events.append(
                ExtraGamesScheduled(
                    at=at,
                    group=group.name,
                    players=need.players,
                    matches=tuple(numbers),
                    again=bool(played),
                )
            )
    return events


def _void_stale_extra_games(state: TournamentState, at: datetime) -> list[Event]:
    """Void the extra games a correction has made unnecessary (NAV-TIE).

    Extra games come in rounds: all the games among one level block, scheduled
    together. A round counts only while the group matches and the rounds before it
    leave that block level; the games of a round that is no longer needed are voided.
    Played ones too: voiding an extra game gives nobody another opponent, it only stops
    counting a game the standings no longer call for.
    """
    index = state.indexed()
    if all(m.status is MatchStatus.VOID for m in index.stage(Stage.TIEBREAK)):
        return []
    voided: dict[str, list[int]] = {}
    for group in state.groups:
        games = index.by_group.get((Stage.TIEBREAK, group.name), [])
        if not games:
            continue  # no extra games: nothing to void
        own = index.by_group.get((Stage.GROUP, group.name), [])
        if any(not m.is_final for m in own):
            continue  # a reopened group match: its extra games wait for its result
        # The games and the results they follow are the inputs: unchanged since the
        # last look (after which nothing was left to void), nothing is stale now.
        inputs = (state.preset.groups, tuple(map(RESULT_FACTS, own)), _games_facts(games))
        key = f"extra:{group.name}"
        remembered = state.memo.get(key)
        if remembered is not None and remembered[0] == inputs:
            continue
        results = [r for m in own if (r := m.result()) is not None]
        kept: list[Result] = []
        for batch in _rounds(games):
            if all(m.status is MatchStatus.VOID for m in batch):
                continue  # a round voided before
            table = group_standings(
                group.players,
                results,
                state.preset.groups,
                lot_seed=state.seed + int(group.name),
                extra_game_results=kept,
            )
            block = {p for m in batch for p in m.players}
            if any(set(need.players) == block for need in table.extra_games):
                kept.extend(r for m in batch if (r := m.result()) is not None)
                continue
            for match in batch:
                if match.status is not MatchStatus.VOID:
                    voided.setdefault(group.name, []).append(match.number)
                    restart(state, match, at)
                    match.status = MatchStatus.VOID
                    match.finished_at = at
        state.memo[key] = ((inputs[0], inputs[1], _games_facts(games)), None)
    return [
        ExtraGamesVoided(at=at, group=group, matches=tuple(numbers))
        for group, numbers in voided.items()
    ]


def _games_facts(games: Sequence[Match]) -> tuple[object, ...]:
    return tuple(map(GAME_FACTS, games))


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
        for k in range(2, len(games) + 2):
            count = k * (k - 1) // 2
            run = games[i : i + count]
            if len(run) < count:
                break
            players = {p for m in run for p in m.players}
            pairs = {frozenset(m.players) for m in run}
            if len(players) == k and len(pairs) == count:
                size = count
        rounds.append(list(games[i : i + size]))
        i += size
    return rounds


def open_ties(state: TournamentState) -> list[str]:
    """Return the groups whose tie waits for extra games, which a lot may settle (NAV-TIE)."""
    return sorted(
        {m.group for m in state.indexed().stage(Stage.TIEBREAK) if not m.is_final and m.group}
    )


def settle_by_lot(state: TournamentState, group: str, seed: int, at: datetime) -> list[Event]:
    """Settle a group's tie that extra games have not broken, by a recorded lot (NAV-TIE).

    The open extra games of the group are decided in the drawn order (the higher drawn
    player wins each), so the extra-game criterion orders the block; `seed` makes the
    draw reproducible and is part of the event the audit log keeps.
    """
    open_games = [
        m for m in state.indexed().stage(Stage.TIEBREAK) if m.group == group and not m.is_final
    ]
    if not open_games:
        raise Refused("no_tie_to_settle", group=group)
    players = sorted({p for m in open_games for p in m.players})
    order = list(players)
    random.Random(f"lot:{seed}:{','.join(map(str, players))}").shuffle(order)
    place = {player: i for i, player in enumerate(order)}
    won = winning_score(state.preset.game, state.preset.groups.tiebreak_game_length)
    for match in open_games:
        assert match.white is not None and match.black is not None
        white_wins = place[match.white] < place[match.black]
        match.white_score, match.black_score = (won, 0) if white_wins else (0, won)
        match.winner = match.white if white_wins else match.black
        match.lot_winner = "white" if white_wins else "black"
        match.status = MatchStatus.FINISHED
        match.finished_at = at
        match.report = None
        match.disputed_by = None
    events: list[Event] = [TieSettledByLot(at=at, group=group, order=tuple(order), seed=seed)]
    return events + settle(state, at)


def qualifiers_of(state: TournamentState, table: Standings) -> list[PlayerId]:
    """Return who a group's table sends to the knockout, best first (HGV-7.1)."""
    return _qualifiers(state, table, _seeded(state, MAIN_STAGES))


def _qualifiers(state: TournamentState, table: Standings, seeded: set[PlayerId]) -> list[PlayerId]:
    # A player already seeded into the bracket (`seeded`, read once by the caller) stays
    # a qualifier when they leave later (HGV-2.3.5 forfeits their matches): leaving
    # does not redraw the bracket.
    active = [
        row.player
        for row in table.rows
        if not row.removed
        and (state.entries[row.player].status is EntryStatus.ACTIVE or row.player in seeded)
    ]
    return active[: state.preset.groups.qualifiers]


def _seeded(state: TournamentState, stages: Sequence[Stage]) -> set[PlayerId]:
    """Return the players the stored bracket seeded (its sides fed by no match)."""
    seeded: set[PlayerId] = set()
    for match in state.indexed().stage(*stages):
        if match.key is None:
            continue
        if match.white is not None and match.white_from is None:
            seeded.add(match.white)
        if match.black is not None and match.black_from is None:
            seeded.add(match.black)
    return seeded


def _main_bracket(state: TournamentState, tables: dict[str, Standings]) -> knockout.Bracket:
    """Return the knockout bracket the group standings give (HGV-7.3.1, NAV-II)."""
    seeded = _seeded(state, MAIN_STAGES)
    qualifiers = [_qualifiers(state, tables[group.name], seeded) for group in state.groups]
    pairings = tuple(map(PAIRING, state.indexed().stage(Stage.GROUP)))
    # A bracket is a value of these inputs: a settle in the knockout reads it again.
    inputs = (tuple(map(tuple, qualifiers)), pairings, state.preset.knockout)
    remembered = state.memo.get("main_bracket")
    if remembered is not None and remembered[0] == inputs:
        return cast(knockout.Bracket, remembered[1])
    played = {frozenset(p) for p in pairings if None not in p}
    bracket = knockout.build_bracket(qualifiers, played, state.preset.knockout)
    state.memo["main_bracket"] = (inputs, bracket)
    return bracket


def _start_knockout(
    state: TournamentState, tables: dict[str, Standings], at: datetime
) -> list[Event]:
    bracket = _main_bracket(state, tables)
    qualifiers = [bracket.seeds]
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


def _advance(
    state: TournamentState,
    at: datetime,
    *,
    reset: bool,
    finish: bool = True,
    tables: dict[str, Standings] | None = None,
) -> list[Event]:
    """Fill and publish the bracket matches the results decide; finish when all are.

    `tables` are the group standings when the group stage is over (read by the caller).
    """
    events: list[Event] = []
    if (
        tables is not None
        and state.preset.knockout.consolation
        and not state.indexed().stage(Stage.CONSOLATION)
    ):
        # Only the final group standings say who did not qualify (HGV-7.4.13).
        bracket_ = _consolation_bracket(state, tables)
        if bracket_ is not None:
            _add_bracket(state, bracket_, at)
    waiting = held(state)
    bracket = [
        m for m in state.indexed().stage(*MAIN_STAGES, Stage.CONSOLATION) if m.key is not None
    ]
    by_key = {m.key: m for m in bracket}
    conflicts: list[int] = []
    for match in bracket:  # by number
        # The stored bracket: a side names the match whose winner (or, for the third
        # place, loser) fills it; a replaced side (HGV-2.3.8) names none.
        white = _fed(match, match.white, match.white_from, by_key)
        black = _fed(match, match.black, match.black_from, by_key)
        events.extend(_pair(state, match, white, black, at, reset=reset, conflicts=conflicts))
        if (
            match.start is None
            and match.white is not None
            and match.black is not None
            and match.number not in waiting
        ):
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
    if conflicts:
        events.append(PairingsConflict(at=at, matches=tuple(conflicts)))
    if conflicts or not finish:
        return events  # a played pairing is contradicted (a director decides), or a group is open
    if _all_done(state):
        events.extend(_finish(state, at, all_standings(state) if tables is None else tables))
    else:
        events.extend(_unfinish(state, at))
    return events


def touched(match: Match) -> bool:
    """Return whether a match is under way or played: its pairing is no longer free."""
    return (
        match.is_final
        or match.report is not None
        or bool(match.games)
        or match.status is not MatchStatus.SCHEDULED
    )


def _pair(
    state: TournamentState,
    match: Match,
    white: PlayerId | None,
    black: PlayerId | None,
    at: datetime,
    *,
    reset: bool,
    conflicts: list[int],
) -> list[Event]:
    """Give a match the players the results say; a played one only when `reset`."""
    if (white, black) == (match.white, match.black):
        return []
    if touched(match) and not reset:
        conflicts.append(match.number)
        return []
    was_touched = touched(match)
    restart(state, match, at)
    match.white, match.black = white, black
    match.start = match.created_at = None  # published again once both are known
    if not was_touched:
        return []
    return [MatchReset(at=at, match=match.number, white=white, black=black)]


def restart(state: TournamentState, match: Match, at: datetime) -> None:
    """Make a match a fresh one from `at`: no result, penalties or applied deadlines."""
    match.status = MatchStatus.SCHEDULED
    match.white_score = match.black_score = 0
    match.winner = None
    match.forfeited_by = frozenset()
    match.finished_at = None
    match.report = None
    match.disputed_by = None
    match.games = ()
    match.tiebreaks = ()
    match.lot_winner = None
    match.pauses = []
    for penalty in state.penalties.values():
        if penalty.match == match.number:
            penalty.cancelled = True
    number = match.number
    for key in list(state.done):
        if key in (f"forfeit:{number}", f"remind:match:{number}") or key.startswith(
            (f"late:{number}:", f"accept:{number}:")
        ):
            del state.done[key]
    if match.start is not None and match.start < at:
        match.start = at  # replayed from now: lateness counts from now
        if match.stage is not Stage.TIEBREAK:
            # An extra game keeps the time its round was scheduled: it tells its round
            # apart from the others (`_rounds`).
            match.created_at = at


def _reseed(
    state: TournamentState, tables: dict[str, Standings], at: datetime, *, reset: bool
) -> list[Event]:
    """Make the seeded sides of the stored brackets follow the current standings."""
    events: list[Event] = []
    conflicts: list[int] = []
    _conform(state, MAIN_STAGES, _main_bracket(state, tables), at, reset, events, conflicts)
    if state.indexed().stage(Stage.CONSOLATION) and not conflicts:
        # After the main bracket: its play-ins decide who plays the "Last Chance".
        consolation = _consolation_bracket(state, tables)
        if consolation is not None:
            _conform(state, (Stage.CONSOLATION,), consolation, at, reset, events, conflicts)
        else:
            # Its players wait for play-ins a correction reopened: nobody is seeded yet.
            for match in state.indexed().stage(Stage.CONSOLATION):
                if match.key is None:
                    continue
                white = None if match.white_from is None else match.white
                black = None if match.black_from is None else match.black
                events.extend(
                    _pair(state, match, white, black, at, reset=reset, conflicts=conflicts)
                )
    if conflicts:
        events.append(PairingsConflict(at=at, matches=tuple(conflicts)))
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


def held(state: TournamentState) -> frozenset[int]:
    """Return the bracket matches not yet played that wait for a reopened group.

    While a correction has a group match open again, a seeded side drawn from that
    group may still change, so its match waits; with rematch avoidance a change may
    swap opponents within the first-round pool, so the whole pool waits. The
    "Last Chance" is seeded from every group's non-qualifiers: all of it waits. Matches
    fed only by other matches, and matches under way or played, are not held.
    """
    open_groups = {m.group for m in state.indexed().stage(*GROUP_STAGES) if not m.is_final}
    if not open_groups:
        return frozenset()
    waiting = {p for g in state.groups if g.name in open_groups for p in g.players}
    found: set[int] = set()
    pools: dict[tuple[Stage, int], list[Match]] = {}
    for match in state.indexed().stage(*MAIN_STAGES, Stage.CONSOLATION):
        if match.key is None or touched(match):
            continue
        seeded = [
            player
            for player, source in (
                (match.white, match.white_from),
                (match.black, match.black_from),
            )
            if source is None
        ]
        if not seeded:
            continue
        if match.stage is Stage.CONSOLATION or any(p is None or p in waiting for p in seeded):
            found.add(match.number)
        if len(seeded) == 2:
            pools.setdefault((match.stage, match.round), []).append(match)
    if state.preset.knockout.avoid_group_rematch:
        for pool in pools.values():
            if any(m.number in found for m in pool):
                found.update(m.number for m in pool)
    return frozenset(found)


def _hold(state: TournamentState, at: datetime) -> list[Event]:
    """Take the start time off the published matches that now wait for a group."""
    numbers = sorted(n for n in held(state) if state.matches[n].start is not None)
    for number in numbers:
        match = state.matches[number]
        match.start = match.created_at = None  # published again once the group is over
        state.done.pop(f"remind:match:{number}", None)
    if not numbers:
        return []
    groups = sorted(
        {m.group or "" for m in state.indexed().stage(*GROUP_STAGES) if not m.is_final}
    )
    return [MatchesHeld(at=at, matches=tuple(numbers), groups=tuple(groups))]


def _conform(
    state: TournamentState,
    stages: tuple[Stage, ...],
    bracket: knockout.Bracket,
    at: datetime,
    reset: bool,
    events: list[Event],
    conflicts: list[int],
) -> None:
    """Give a stored bracket's seeded sides the players `bracket` seeds there."""
    stored = {m.key: m for m in state.indexed().stage(*stages) if m.key is not None}
    if {bm.key for bm in bracket.matches} != set(stored):
        played = [m.number for m in stored.values() if touched(m)]
        if played and not reset:
            conflicts.extend(played)
            return
        for match in stored.values():  # the shape changed: a new bracket replaces it
            restart(state, match, at)
            match.status, match.key, match.finished_at = MatchStatus.VOID, None, at
        _add_bracket(state, bracket, at)
        events.append(
            KnockoutStarted(at=at, qualifiers=len(bracket.seeds), matches=len(bracket.matches))
        )
        return
    wanted: list[tuple[Match, PlayerId | None, PlayerId | None]] = []
    for bm in bracket.matches:
        match = stored[bm.key]
        white = bm.white if bm.white_from is None and match.white_from is None else match.white
        black = bm.black if bm.black_from is None and match.black_from is None else match.black
        wanted.append((match, white, black))
    contradicted = [
        m.number
        for m, white, black in wanted
        if (white, black) != (m.white, m.black) and touched(m)
    ]
    if contradicted and not reset:
        # All or nothing: re-pairing the other matches around a contradicted one could
        # put a player in two matches at once.
        conflicts.extend(contradicted)
        return
    for match, white, black in wanted:
        events.extend(_pair(state, match, white, black, at, reset=reset, conflicts=conflicts))


def _consolation_bracket(
    state: TournamentState, tables_by_group: dict[str, Standings]
) -> knockout.Bracket | None:
    """Return the "Last Chance" bracket the results give, once the play-ins are decided."""
    play_ins = [m for m in state.indexed().stage(Stage.KNOCKOUT) if m.round_name == "play_in"]
    if any(not m.is_final for m in play_ins):
        return None
    in_bracket = {p for m in state.indexed().stage(*MAIN_STAGES) if m.key for p in m.players}
    seeded = _seeded(state, (Stage.CONSOLATION,))
    play_in_losers = [
        p for m in play_ins for p in m.players if p != m.winner and m.winner is not None
    ]
    others: list[PlayerId] = []
    tables = [tables_by_group[group.name] for group in state.groups]
    depth = max((len(t.rows) for t in tables), default=0)
    for position in range(depth):
        for table in tables:
            if position >= len(table.rows):
                continue
            row = table.rows[position]
            entry = state.entries[row.player]
            if row.removed or row.player in in_bracket:
                continue
            if entry.status is EntryStatus.ACTIVE or row.player in seeded:
                others.append(row.player)
    players = play_in_losers + others
    played = {frozenset(m.players) for m in state.indexed().stage(Stage.GROUP)}
    return knockout.build_consolation(players, played, state.preset.knockout)


def _all_done(state: TournamentState) -> bool:
    """Return whether every bracket match has a winner (a double forfeit waits)."""
    return all(m.is_final and m.winner is not None for m in state.matches.values() if m.key)


def _finish(state: TournamentState, at: datetime, tables: dict[str, Standings]) -> list[Event]:
    main = bracket_of(state, MAIN_STAGES)
    main_winners = winners(state, MAIN_STAGES)
    places: dict[PlayerId, int] = {}
    if main is not None:
        places = {player: place for place, player in placements.placements(main, main_winners)}
    drawn = [p for g in state.groups for p in g.players]
    if main is None and len(drawn) >= 1:
        # A single qualifier is champion without a knockout match.
        seeded = _seeded(state, MAIN_STAGES)
        qualifiers = [q for t in tables.values() for q in _qualifiers(state, t, seeded)]
        if len(qualifiers) == 1:
            places[qualifiers[0]] = 1
    # PLACE-SHARE: those knocked out in the groups share the places after everyone the
    # knockout placed (nine players, four qualifiers: 5th-9th), the best of them counting.
    unplaced_place = len(places) + 1
    consolation = bracket_of(state, (Stage.CONSOLATION,))
    finalists = (
        set(placements.finalists(consolation, winners(state, (Stage.CONSOLATION,))))
        if consolation is not None
        else set()
    )
    group_wins = {
        row.player: row.won for table in tables.values() for row in table.rows if not row.removed
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
    before = [(p.place, p.player, p.points) for p in state.placements]
    finished = state.status is TournamentStatus.FINISHED
    previous = next((p.player for p in state.placements if p.place == 1), None)
    state.placements = []
    for player in drawn:
        entry = state.entries[player]
        if entry.status is EntryStatus.NO_SHOW or (
            entry.status is EntryStatus.WITHDRAWN and not entry.presence
        ):
            continue  # never came (an excused no-show is withdrawn): no points
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
    # Within a shared range, group-stage order: group winners in group order, then the
    # runners-up, and so on (PLACE-SHARE).
    order = {player: i for i, player in enumerate(_group_stage_order(state, tables))}
    state.placements.sort(
        key=lambda p: (p.place is None, p.place or 0, order.get(p.player, len(order)), p.player)
    )
    champion = next((p.player for p in state.placements if p.place == 1), None)
    if finished:
        # A correction after the finish: say so only when it changed something.
        if [(p.place, p.player, p.points) for p in state.placements] == before:
            return []
        return [PlacementsChanged(at=at, champion=champion, previous_champion=previous)]
    state.status = TournamentStatus.FINISHED
    state.finished_at = at
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


def _group_stage_order(
    state: TournamentState, tables_by_group: dict[str, Standings]
) -> list[PlayerId]:
    """Return every drawn player by group place, then group: 1st of each group, 2nd, ..."""
    tables = [tables_by_group[group.name] for group in state.groups]
    depth = max((len(t.rows) for t in tables), default=0)
    return [t.rows[place].player for place in range(depth) for t in tables if place < len(t.rows)]


def _unfinish(state: TournamentState, at: datetime) -> list[Event]:
    """Withdraw the placements of a finished tournament that has an undecided match again."""
    if state.status is not TournamentStatus.FINISHED:
        return []
    state.status = TournamentStatus.KNOCKOUT
    state.placements = []
    state.finished_at = None
    return [TournamentReopened(at=at)]
