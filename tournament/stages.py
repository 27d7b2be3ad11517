"""What every step of a tournament's progress reads: the stages, standings, brackets,
winners and qualifiers, and how a match is restarted or touched.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from itertools import compress
from operator import attrgetter, eq, ne
from typing import cast

from tournament import knockout
from tournament.model import (
    FINAL_STATUSES,
    NOBODY,
    EntryStatus,
    MatchStatus,
    PlayerId,
    Result,
    Stage,
)
from tournament.standings import Standings, group_standings
from tournament.state import Group, Match, TournamentState

GROUP_STAGES = (Stage.GROUP, Stage.TIEBREAK)
# What a match's `result()` is made of: unchanged facts give an unchanged result.
RESULT_FACTS = attrgetter(
    "status", "white", "black", "white_score", "black_score", "winner", "forfeited_by"
)
PAIRING = attrgetter("white", "black")
_new_tuple = tuple.__new__
# The statuses whose result counts (`Match.result`): final and not void.
_COUNTED = FINAL_STATUSES - {MatchStatus.VOID}
# What the group stage is made of, per match: what its `result()` reads (unchanged facts
# give an unchanged result), the number and group that place it, and when it was
# scheduled (which tells the rounds of extra games apart, `_rounds`).
STAGE_FACTS = attrgetter(
    "number",
    "group",
    "status",
    "white",
    "black",
    "white_score",
    "black_score",
    "winner",
    "forfeited_by",
    "created_at",
)
MAIN_STAGES = (Stage.KNOCKOUT, Stage.THIRD_PLACE)
# From this many group-stage matches on, their facts are compared as they are read: a
# list of that many new tuples would wake the garbage collector (threshold 700).
_STREAMED = 700
# Tables remembered per group: the current one and those of its rounds of extra games.
_TABLES_KEPT = 4


def standings_of(state: TournamentState, group: Group) -> Standings:
    """Return a group's standings from its final matches, extra games included."""
    return all_standings(state, [group])[group.name]


def stage_facts(state: TournamentState) -> list[tuple[object, ...]]:
    """Return the facts of every group match and extra game, by number (`STAGE_FACTS`).

    While they are unchanged the list last returned is returned again: the facts are
    compared as they are read, and no new list is kept (thousands of tuples a settle
    would wake the garbage collector for nothing).
    """
    matches = state.indexed().stage(*GROUP_STAGES)
    remembered = state.memo.get("facts")
    before = None if remembered is None else cast(list[tuple[object, ...]], remembered[0])
    if (
        before is not None
        and len(before) == len(matches) >= _STREAMED
        and all(map(eq, map(STAGE_FACTS, matches), before))
    ):
        return before
    facts = list(map(STAGE_FACTS, matches))
    if before is not None and len(matches) < _STREAMED and facts == before:
        return before  # a few hundred tuples: gathered and compared in one go is faster
    state.memo["facts"] = (facts, None)
    return facts


def stage_context(state: TournamentState) -> tuple[object, ...]:
    """Return what a group's table depends on besides its matches: the rules, the seed
    and the groups; the same object as last time while they are unchanged."""
    context = (state.preset.groups, state.seed, [(g.name, g.players) for g in state.groups])
    remembered = state.memo.get("context")
    if remembered is not None and remembered[0] == context:
        return cast(tuple[object, ...], remembered[0])
    state.memo["context"] = (context, None)
    return context


def all_standings(
    state: TournamentState,
    groups: Sequence[Group] | None = None,
    *,
    facts: list[tuple[object, ...]] | None = None,
) -> dict[str, Standings]:
    """Return the standings of every group (or of `groups`), reading the matches once.

    Each group's table is remembered by the facts of its own matches (`group_table`).
    Given `facts` (`stage_facts(state)`, just read), the tables are also remembered
    with the facts of the whole group stage: a later call with unchanged facts reuses
    them all, and one with changed facts looks again only at the groups they touch.
    """
    groups = state.groups if groups is None else groups
    index = state.indexed()
    context = None if facts is None else stage_context(state)
    remembered = None if facts is None else state.memo.get("standings")
    known: dict[str | None, Standings] = {}
    if facts is not None and remembered is not None:
        before_context, before = cast(tuple[object, list[tuple[object, ...]]], remembered[0])
        if before_context is context:
            known = cast(dict[str | None, Standings], remembered[1])
            if before is not facts and before != facts:
                changed = changed_groups(before, facts)
                known = {name: t for name, t in known.items() if name not in changed}
    by_group = index.by_group
    tables: dict[str, Standings] = {}
    for group in groups:
        table = known.get(group.name)
        if table is None:
            played = by_group.get((Stage.GROUP, group.name), ())
            # An extra game counts once final: scheduling one leaves the table as it was.
            extra = by_group.get((Stage.TIEBREAK, group.name))
            games = [m for m in extra if m.status in FINAL_STATUSES] if extra else ()
            table = known[group.name] = group_table(state, group, played, games)
        tables[group.name] = table
    if facts is not None:
        state.memo["standings"] = ((context, facts), known)
    return tables


def changed_groups(
    before: Sequence[tuple[object, ...]], after: Sequence[tuple[object, ...]]
) -> set[object]:
    """Return the groups of the matches whose facts differ, or that one side lacks."""
    shorter = min(len(before), len(after))
    # Only the positions that differ are visited in Python.
    differ = list(compress(range(shorter), map(ne, before, after)))
    changed = {before[i][1] for i in differ}
    changed.update(after[i][1] for i in differ)
    changed.update(f[1] for f in before[shorter:])
    changed.update(f[1] for f in after[shorter:])
    return changed


def group_table(
    state: TournamentState,
    group: Group,
    played: Sequence[Match],
    games: Sequence[Match] = (),
) -> Standings:
    """Return a group's standings from the results of `played` and of the extra `games`.

    The last few tables of each group are remembered by the facts their results are
    made of (`RESULT_FACTS`): the extra-game check (`void_stale_extra_games`) asks again
    for the tables the standings drew when each round of extra games was scheduled.
    """
    rules = state.preset.groups
    lot_seed = state.seed + int(group.name)
    key = "tables:" + group.name
    context = (rules, lot_seed, group.players)
    inputs = (tuple(map(RESULT_FACTS, played)), tuple(map(RESULT_FACTS, games)))
    remembered = state.memo.get(key)
    if remembered is not None and remembered[0] == context:
        known = cast(dict[object, Standings], remembered[1])
        # The table drawn last is the one usually asked for: compared before hashing.
        last = next(reversed(known.keys()), None)
        if last is not None and last == inputs:
            return known[last]
    else:
        known = {}
        state.memo[key] = (context, known)
    table = known.get(inputs)
    if table is None:
        table = group_standings(
            group.players,
            results_from(inputs[0]),
            rules,
            lot_seed=lot_seed,
            extra_game_results=results_from(inputs[1]),
            lot_rank=drawn_rank(state),
        )
        if len(known) >= _TABLES_KEPT:
            del known[next(iter(known))]  # the oldest
        known[inputs] = table
    return table


def drawn_rank(state: TournamentState) -> Callable[[PlayerId], int]:
    """Return a player's place among the drawn players by id (1 = lowest): what a player
    enters a lot as. Databases number players differently (a PostgreSQL sequence skips
    the number a refused command took; SQLite gives it again), in the same order.

    The drawn players, not the entries: a walk-in entered after the draw may be an old
    member with a lower id, and must not move everyone's place, and so a lot already
    drawn. A redraw or a merge makes a new DrawRecord, and so new places.
    """
    draw = state.draw
    remembered = state.memo.get(DRAWN_ORDER)
    if remembered is None or remembered[0] is not draw:
        # The groups are made of the drawn players; read both, so none can be missing.
        grouped = (p for g in state.groups for p in g.players)
        players = {*draw.players, *grouped} if draw is not None else set(state.entries)
        ranks = {player: place for place, player in enumerate(sorted(players), 1)}
        remembered = (draw, ranks.__getitem__)
        state.memo[DRAWN_ORDER] = remembered
    return cast(Callable[[PlayerId], int], remembered[1])


# The state.memo key of the drawn players' places (drawn_rank).
DRAWN_ORDER = "drawn_order"


def results_from(facts: Sequence[tuple[object, ...]]) -> list[Result]:
    """Return the results of matches read as `RESULT_FACTS`, as `Match.result` gives them.

    Made from the facts a table is remembered by, already read: a call of `Match.result`
    per match cost more than the rest of a remembered table's look-up.
    """
    # RESULT_FACTS: the status, then a Result's fields in order, all six of them: made as
    # `Result._make` makes them, without its call and length check per result.
    make = _new_tuple
    return [
        make(Result, fact[1:])
        for fact in facts
        if fact[0] in _COUNTED and fact[1] is not None and fact[2] is not None
    ]


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


def qualifiers_of(state: TournamentState, table: Standings) -> list[PlayerId]:
    """Return who a group's table sends to the knockout, best first (HGV-7.1)."""
    return group_qualifiers(state, table, seeded_order(state, MAIN_STAGES))


def group_qualifiers(
    state: TournamentState, table: Standings, seeded: set[PlayerId]
) -> list[PlayerId]:
    """Return a group's qualifiers in table order (HGV-7.2.1)."""
    # A player already seeded into the bracket (`seeded`, read once by the caller) stays
    # a qualifier when they leave later (HGV-2.3.5 forfeits their matches): leaving
    # does not redraw the bracket.
    wanted = state.preset.groups.qualifiers
    entries = state.entries
    active: list[PlayerId] = []
    for row in table.rows:
        if len(active) >= wanted:
            break
        if not row.removed and (
            entries[row.player].status is EntryStatus.ACTIVE or row.player in seeded
        ):
            active.append(row.player)
    return active


def seeded_order(state: TournamentState, stages: Sequence[Stage]) -> set[PlayerId]:
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


def touched(match: Match) -> bool:
    """Return whether a match is under way or played: its pairing is no longer free."""
    return (
        match.is_final
        or match.report is not None
        or bool(match.games)
        or match.status is not MatchStatus.SCHEDULED
    )


def restart(state: TournamentState, match: Match, at: datetime) -> None:
    """Make a match a fresh one from `at`: no result, penalties or applied deadlines."""
    match.status = MatchStatus.SCHEDULED
    match.white_score = match.black_score = 0
    match.winner = None
    match.forfeited_by = NOBODY
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
