"""The knockout moving on: the bracket started from the group stage, winners sent on,
slots re-seeded after corrections, matches held until both players are known.
"""

from __future__ import annotations

from datetime import datetime
from operator import attrgetter, eq, is_
from typing import cast

from tournament import knockout
from tournament.events import (
    Event,
    KnockoutStarted,
    LastChanceCalledOff,
    MatchesHeld,
    MatchReady,
    MatchReset,
    PairingsConflict,
)
from tournament.finishing import (
    all_done,
    finish_tournament,
    unfinish,
)
from tournament.model import (
    FINAL_STATUSES,
    EntryStatus,
    MatchStatus,
    PlayerId,
    Stage,
    TournamentStatus,
)
from tournament.stages import (
    GROUP_STAGES,
    MAIN_STAGES,
    PAIRING,
    all_standings,
    group_qualifiers,
    restart,
    seeded_order,
    touched,
)
from tournament.standings import Standings
from tournament.state import Match, TournamentState, minutes

_STATUS = attrgetter("status")


def build_main_bracket(
    state: TournamentState,
    tables: dict[str, Standings],
    *,
    facts: list[tuple[object, ...]] | None = None,
) -> knockout.Bracket:
    """Return the knockout bracket the group standings give (HGV-7.3.1, NAV-II).

    `facts` are the group stage's facts (`stage_facts(state)`), when the caller read them.
    """
    seeded = seeded_order(state, MAIN_STAGES)
    qualifiers = _qualifiers(state, [tables[group.name] for group in state.groups], seeded)
    group_matches = state.indexed().stage(Stage.GROUP)
    rules = state.preset.knockout
    # A bracket is a value of these inputs: a settle in the knockout reads it again. The
    # pairings are compared as they are read, not gathered first: thousands of tuples a
    # settle would wake the garbage collector. The same facts as last time (the list
    # `stage_facts` returns while they are unchanged) hold the same pairings: no need to
    # read them again.
    remembered = state.memo.get("main_bracket")
    if remembered is not None:
        before = cast(
            tuple[object, list[list[PlayerId]], tuple[object, ...], object], remembered[0]
        )
        if (
            before[0] == rules
            and before[1] == qualifiers
            and (
                (facts is not None and before[3] is facts)
                or (
                    len(before[2]) == len(group_matches)
                    and all(map(eq, map(PAIRING, group_matches), before[2]))
                )
            )
        ):
            if before[3] is not facts:
                state.memo["main_bracket"] = ((*before[:3], facts), remembered[1])
            return cast(knockout.Bracket, remembered[1])
    pairings = tuple(map(PAIRING, group_matches))
    played = {frozenset(p) for p in pairings if None not in p}
    bracket = knockout.build_bracket(qualifiers, played, rules)
    state.memo["main_bracket"] = ((rules, qualifiers, pairings, facts), bracket)
    return bracket


def _qualifiers(
    state: TournamentState, tables: list[Standings], seeded: set[PlayerId]
) -> list[list[PlayerId]]:
    """Return each group's qualifiers (`group_qualifiers`), in group order.

    They are a value of the group tables (immutable: the same objects, the same rows),
    who is active and who the stored bracket seeded: with all three as they were last
    time, the qualifiers then found are returned again instead of reading every table.
    """
    entries = state.entries
    wanted = state.preset.groups.qualifiers
    active = (tuple(entries), tuple(map(_STATUS, entries.values())))
    remembered = state.memo.get("qualifiers")
    if remembered is not None:
        before = cast(
            tuple[int, tuple[object, ...], set[PlayerId], list[Standings]], remembered[0]
        )
        if (
            before[0] == wanted
            and before[1] == active
            and before[2] == seeded
            and len(before[3]) == len(tables)
            and all(map(is_, before[3], tables))
        ):
            return cast(list[list[PlayerId]], remembered[1])
    found = [group_qualifiers(state, table, seeded) for table in tables]
    state.memo["qualifiers"] = ((wanted, active, seeded, tables), found)
    return found


def start_knockout(
    state: TournamentState, tables: dict[str, Standings], at: datetime
) -> list[Event]:
    """Start the knockout from the final group tables."""
    bracket = build_main_bracket(state, tables)
    qualifiers = [bracket.seeds]
    state.status = TournamentStatus.KNOCKOUT
    add_bracket(state, bracket, at)
    if not bracket.matches:
        return []  # a lone qualifier is champion without a knockout (see finish_tournament)
    return [
        KnockoutStarted(at=at, qualifiers=sum(map(len, qualifiers)), matches=len(bracket.matches))
    ]


def add_bracket(state: TournamentState, bracket: knockout.Bracket, at: datetime) -> None:
    """Add a bracket's matches to the tournament, numbered after the last one."""
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


def advance(
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
    if tables is not None:
        _start_consolation(state, tables, at)
    # Given tables mean the group stage is over: no group is open, nothing is held.
    waiting = held(state) if tables is None else frozenset()
    bracket = [
        m for m in state.indexed().stage(*MAIN_STAGES, Stage.CONSOLATION) if m.key is not None
    ]
    by_key = {m.key: m for m in bracket}
    # Who each match sends on: its winner once final (the third place asks `_fed`).
    sends = {m.key: m.winner if m.status in FINAL_STATUSES else None for m in bracket}
    conflicts: list[int] = []
    for match in bracket:  # by number
        # The stored bracket: a side names the match whose winner (or, for the third
        # place, loser) fills it; a replaced side (HGV-2.3.8) names none. The checks
        # inline are the common case of a settle: nothing to do for this match.
        white, black = match.white, match.black
        if match.stage is Stage.THIRD_PLACE:
            if match.white_from is not None:
                white = _fed(match, match.white_from, by_key)
            if match.black_from is not None:
                black = _fed(match, match.black_from, by_key)
        else:
            if match.white_from is not None:
                white = sends[match.white_from]
            if match.black_from is not None:
                black = sends[match.black_from]
        if white != match.white or black != match.black:
            events.extend(pair(state, match, white, black, at, reset=reset, conflicts=conflicts))
            # A match re-paired now sends nobody on: the later matches it feeds (by
            # number) must not keep its old winner in this same pass.
            sends[match.key] = match.winner if match.status in FINAL_STATUSES else None
        if (
            match.start is None
            and match.white is not None
            and match.black is not None
            and match.number not in waiting
        ):
            events.extend(_publish_if_ready(state, match, at))
    if tables is not None and not conflicts and any(isinstance(e, MatchReset) for e in events):
        # A played match re-paired just now may be one a replacement stood on: its side
        # follows that match again, and what it feeds moves on once more.
        stored = {m.key: m for m in state.indexed().stage(*MAIN_STAGES) if m.key is not None}
        relinked = _follow(state, build_main_bracket(state, tables), stored, {}, at, reset)
        if any(isinstance(e, PairingsConflict) for e in relinked):
            return events + relinked  # a played match would change: a director decides
        if relinked:
            return (
                events + relinked + advance(state, at, reset=reset, finish=finish, tables=tables)
            )
    if conflicts:
        events.append(PairingsConflict(at=at, matches=tuple(conflicts)))
    if conflicts or not finish:
        return events  # a played pairing is contradicted (a director decides), or a group is open
    if all_done(bracket):  # every match with a bracket key
        events.extend(
            finish_tournament(state, at, all_standings(state) if tables is None else tables)
        )
    else:
        events.extend(unfinish(state, at))
    return events


def vacate_last_chance(state: TournamentState, at: datetime) -> list[Event]:
    """Take out of the "Last Chance" not yet begun the players who now play on in the
    main bracket (a play-in corrected while a group is open, HGV-4.8, HGV-7.4.13).

    Without final group tables it cannot be seeded again (`reseed`): its matches wait
    (`held`), and meanwhile nobody is in both brackets.
    """
    playing_on = {
        p
        for m in state.indexed().stage(*MAIN_STAGES)
        if m.key is not None and m.round_name != "play_in" and not m.is_final
        for p in m.players
    }
    events: list[Event] = []
    for match in state.indexed().stage(Stage.CONSOLATION):
        if match.key is None or touched(match):
            continue
        white = None if match.white_from is None and match.white in playing_on else match.white
        black = None if match.black_from is None and match.black in playing_on else match.black
        events.extend(pair(state, match, white, black, at, reset=False, conflicts=[]))
    return events


def _start_consolation(state: TournamentState, tables: dict[str, Standings], at: datetime) -> None:
    """Add the consolation bracket once the group stage is over: only the final group
    standings say who did not qualify (HGV-7.4.13)."""
    if not state.preset.knockout.consolation or state.indexed().stage(Stage.CONSOLATION):
        return
    bracket = consolation_bracket(state, tables)
    if bracket is not None:
        add_bracket(state, bracket, at)


def _publish_if_ready(state: TournamentState, match: Match, at: datetime) -> list[Event]:
    """Schedule a bracket match whose two players are now known, and say so."""
    if match.start is not None or match.white is None or match.black is None:
        return []
    match.start = at + minutes(state.preset.knockout.break_minutes)
    match.created_at = at  # its schedule is published now: no reminder before
    return [
        MatchReady(
            at=at,
            match=match.number,
            white=match.white,
            black=match.black,
            start=match.start,
            round_name=match.round_name or "",
        )
    ]


def pair(
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
    forfeiters = match.forfeited_by if match.stage in MAIN_STAGES else frozenset()
    restart(state, match, at)
    forget_forfeits(state, forfeiters)
    match.white, match.black = white, black
    match.start = match.created_at = None  # published again once both are known
    if not was_touched:
        return []
    return [MatchReset(at=at, match=match.number, white=white, black=black)]


def forget_forfeits(state: TournamentState, players: frozenset[PlayerId]) -> None:
    """Drop the HGV-2.3.8 mark of players whose knockout forfeit was undone, unless
    another knockout forfeit of theirs stands."""
    for player in players:
        stands = any(
            player in m.forfeited_by and m.key is not None and m.is_final
            for m in state.indexed().stage(*MAIN_STAGES)
        )
        if not stands:
            state.entries[player].knockout_forfeit = False


def reseed(
    state: TournamentState,
    tables: dict[str, Standings],
    at: datetime,
    *,
    reset: bool,
    facts: list[tuple[object, ...]] | None = None,
) -> list[Event]:
    """Make the seeded sides of the stored brackets follow the current standings.

    `facts` are the group stage's facts (`stage_facts(state)`), when the caller read them.
    """
    events: list[Event] = []
    conflicts: list[int] = []
    main = build_main_bracket(state, tables, facts=facts)
    _conform(state, MAIN_STAGES, main, at, reset, events, conflicts)
    if state.indexed().stage(Stage.CONSOLATION) and not conflicts:
        # After the main bracket: its play-ins decide who plays the "Last Chance".
        consolation = consolation_bracket(state, tables)
        if consolation is not None:
            _conform(state, (Stage.CONSOLATION,), consolation, at, reset, events, conflicts)
        elif not _play_ins_pending(state):
            # Fewer than two players left for it: no "Last Chance" (HGV-7.4.13).
            events.extend(_drop(state, Stage.CONSOLATION, at, reset, conflicts))
        else:
            # Its players wait for play-ins a correction reopened: nobody is seeded yet.
            for match in state.indexed().stage(Stage.CONSOLATION):
                if match.key is None:
                    continue
                white = None if match.white_from is None else match.white
                black = None if match.black_from is None else match.black
                events.extend(
                    pair(state, match, white, black, at, reset=reset, conflicts=conflicts)
                )
    if conflicts:
        events.append(PairingsConflict(at=at, matches=tuple(conflicts)))
    return events


def _play_ins_pending(state: TournamentState) -> bool:
    """Return whether a play-in of the main bracket is undecided."""
    return any(
        m.key is not None and m.round_name == "play_in" and not m.is_final
        for m in state.indexed().stage(Stage.KNOCKOUT)
    )


def _drop(
    state: TournamentState, stage: Stage, at: datetime, reset: bool, conflicts: list[int]
) -> list[Event]:
    """Take a bracket that no longer takes place out of the tournament, as a replaced
    one is; a played match of it is a conflict for a director first. The players of its
    matches already called are told they are off (they may be at the table)."""
    stored = [m for m in state.indexed().stage(stage) if m.key is not None]
    played = [m.number for m in stored if touched(m)]
    if played and not reset:
        conflicts.extend(played)
        return []
    called = tuple(m.number for m in stored if m.start is not None and len(m.players) == 2)
    for match in stored:
        restart(state, match, at)
        match.status, match.key, match.finished_at = MatchStatus.VOID, None, at
    return [LastChanceCalledOff(at=at, matches=called)] if called else []


def _fed(match: Match, source: str, by_key: dict[str | None, Match]) -> PlayerId | None:
    """Return the player the match `source` sends to `match`, or None while undecided."""
    feeder = by_key[source]
    if not feeder.is_final or feeder.winner is None:
        return None
    if match.stage is Stage.THIRD_PLACE:
        loser = feeder.opponent_of(feeder.winner)
        # A loser who took a final forfeiter's place plays the final: the forfeiter
        # drops here instead (HGV-2.3.8, NAV-IV; as `knockout` derives it). The final
        # is the first match of the third-place match's round.
        final = by_key.get(f"{knockout.KNOCKOUT_PREFIX}-R{match.round}-1")
        return feeder.winner if final is not None and loser in final.players else loser
    return feeder.winner


def held(state: TournamentState) -> frozenset[int]:
    """Return the bracket matches not yet played that wait for a reopened group.

    While a correction has a group match open again, a seeded side drawn from that
    group may still change, so its match waits; with rematch avoidance a change may
    swap opponents within the first-round pool, so the whole pool waits. The
    "Last Chance" is seeded from every group's non-qualifiers: all of it waits. Matches
    fed only by other matches, and matches under way or played, are not held.
    """
    open_groups = {
        m.group for m in state.indexed().stage(*GROUP_STAGES) if m.status not in FINAL_STATUSES
    }
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


def without_winner(state: TournamentState) -> list[Match]:
    """Return the bracket matches that ended with nobody to send on, void or lost by both
    players (CLUB-BOTH-ABSENT): the knockout cannot go on from them, nor the tournament
    finish, until a director gives each a winner or has it played again."""
    if state.status is not TournamentStatus.KNOCKOUT:
        return []
    return sorted(
        (
            m
            for m in state.indexed().stage(*MAIN_STAGES, Stage.CONSOLATION)
            if m.key is not None and m.is_final and m.winner is None
        ),
        key=lambda m: m.number,
    )


def hold_unready(state: TournamentState, at: datetime) -> list[Event]:
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
    # The keys of a bracket are distinct: as many, all stored, is the same shape.
    same_shape = len(stored) == len(bracket.matches) and all(
        bm.key in stored for bm in bracket.matches
    )
    if not same_shape:
        played = [m.number for m in stored.values() if touched(m)]
        if played and not reset:
            conflicts.extend(played)
            return
        for match in stored.values():  # the shape changed: a new bracket replaces it
            forfeiters = match.forfeited_by if match.stage in MAIN_STAGES else frozenset()
            restart(state, match, at)
            match.status, match.key, match.finished_at = MatchStatus.VOID, None, at
            forget_forfeits(state, forfeiters)
        add_bracket(state, bracket, at)
        events.append(
            KnockoutStarted(at=at, qualifiers=len(bracket.seeds), matches=len(bracket.matches))
        )
        return
    # Only the matches whose sides change: `pair` leaves the others as they are.
    changes: dict[str, tuple[Match, PlayerId | None, PlayerId | None]] = {}
    for bm in bracket.matches:
        match = stored[bm.key]
        white = bm.white if bm.white_from is None and match.white_from is None else match.white
        black = bm.black if bm.black_from is None and match.black_from is None else match.black
        if white != match.white or black != match.black:
            changes[bm.key] = (match, white, black)
    followed = _follow(state, bracket, stored, changes, at, reset, conflicts)
    events.extend(followed)


def _follow(
    state: TournamentState,
    bracket: knockout.Bracket,
    stored: dict[str, Match],
    changes: dict[str, tuple[Match, PlayerId | None, PlayerId | None]],
    at: datetime,
    reset: bool,
    conflicts: list[int] | None = None,
) -> list[Event]:
    """Re-pair the stored matches as `changes` say, with the replaced sides that no
    longer stand linked to their feeding match again (`_relinks`); return the events."""
    if len(stored) != len(bracket.matches) or any(bm.key not in stored for bm in bracket.matches):
        return []  # not this bracket's shape: `_conform` replaces it first
    relinks = _relinks(bracket, stored, changes)
    contradicted = [m.number for m, _, _ in changes.values() if touched(m)]
    if contradicted and not reset:
        # All or nothing: re-pairing the other matches around a contradicted one could
        # put a player in two matches at once.
        if conflicts is not None:
            conflicts.extend(contradicted)
        return (
            [] if conflicts is not None else [PairingsConflict(at=at, matches=tuple(contradicted))]
        )
    for match, white_from, black_from in relinks:
        match.white_from, match.black_from = white_from, black_from
    events: list[Event] = []
    found: list[int] = []
    for match, white, black in changes.values():
        events.extend(pair(state, match, white, black, at, reset=reset, conflicts=found))
    if conflicts is not None:
        conflicts.extend(found)
    elif found:
        events.append(PairingsConflict(at=at, matches=tuple(found)))
    return events


def _relinks(
    bracket: knockout.Bracket,
    stored: dict[str, Match],
    changes: dict[str, tuple[Match, PlayerId | None, PlayerId | None]],
) -> list[tuple[Match, str | None, str | None]]:
    """Return the replaced sides to link to their feeding match again, adding their
    matches to `changes`.

    A forfeiter's last victim takes a side fixed in place of the feeding match the
    forfeiter won over them (HGV-2.3.8). Once that match is re-paired (or a match feeding
    it), reopened or won by someone else, the result the replacement stood on is gone:
    the side waits for its winner again.
    """
    replaced = [
        bm
        for bm in bracket.matches
        if (bm.white_from is not None and stored[bm.key].white_from is None)
        or (bm.black_from is not None and stored[bm.key].black_from is None)
    ]
    if not replaced:
        return []  # the common case: no forfeiter was replaced
    moved = set(changes)  # re-paired now, or fed by a re-paired match later
    relinks: dict[str, tuple[Match, str | None, str | None]] = {}
    grown = True
    while grown:
        grown = False
        for bm in bracket.matches:
            match = stored[bm.key]
            _, white_from, black_from = relinks.get(
                bm.key, (match, match.white_from, match.black_from)
            )
            _, white, black = changes.get(bm.key, (match, match.white, match.black))
            fed = {bm.white_from, bm.black_from} & moved
            if fed and bm.key not in moved:
                moved.add(bm.key)
                grown = True
            if white_from is None and _stale(stored, bm.white_from, match.white, moved):
                white_from, white = bm.white_from, None
            elif black_from is None and _stale(stored, bm.black_from, match.black, moved):
                black_from, black = bm.black_from, None
            else:
                continue
            relinks[bm.key] = (match, white_from, black_from)
            changes[bm.key] = (match, white, black)
            # Re-paired now: a side replaced further on that stood on this match's
            # result no longer stands either (a victim who stepped in for its winner).
            moved.add(bm.key)
            grown = True
    return list(relinks.values())


def _stale(
    stored: dict[str, Match], source: str | None, victim: PlayerId | None, moved: set[str]
) -> bool:
    """Return whether a replaced side no longer stands: the victim lost `source`."""
    if source is None:
        return False  # a seeded side
    if source in moved:
        return True
    feeder = stored.get(source)
    return not (
        feeder is not None
        and feeder.is_final
        and feeder.winner not in (None, victim)
        and victim is not None
        and feeder.involves(victim)
    )


def consolation_bracket(
    state: TournamentState, tables_by_group: dict[str, Standings]
) -> knockout.Bracket | None:
    """Return the "Last Chance" bracket the results give, once the play-ins are decided."""
    main = [m for m in state.indexed().stage(*MAIN_STAGES) if m.key is not None]
    play_ins = [m for m in main if m.round_name == "play_in"]
    if any(not m.is_final for m in play_ins):
        return None
    in_bracket = {p for m in main for p in m.players}
    # A play-in loser who took a forfeiter's place plays on in the main bracket (HGV-2.3.8).
    playing_on = {p for m in main if m.round_name != "play_in" for p in m.players}
    seeded = seeded_order(state, (Stage.CONSOLATION,))
    # One who left is not seeded (HGV-2.3.5), unless already seeded before leaving.
    play_in_losers = [
        p
        for m in play_ins
        for p in m.players
        if p != m.winner
        and m.winner is not None
        and p not in playing_on
        and (state.entries[p].status is EntryStatus.ACTIVE or p in seeded)
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
