"""How a tournament moves on: the draw, then `settle` after every change.

`settle` is called after every change that can finish a match; it starts the knockout
when the last group match is final (INTERFACE: "the knockout stage starts by itself"),
fills bracket slots as winners emerge, and finishes the tournament with placements and
ranking points when the last match is final.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from datetime import datetime
from operator import attrgetter
from typing import cast

from tournament.advance import (
    advance,
    held,
    hold_unready,
    reseed,
    start_knockout,
    vacate_last_chance,
    without_winner,
)
from tournament.draw import DrawInputs, draw_groups, fingerprint
from tournament.events import (
    Event,
    ExtraGamesScheduled,
    GroupsDrawn,
    PairingsConflict,
    TieSettledByLot,
)
from tournament.extra_games import open_ties, schedule_extra_games, void_stale_extra_games
from tournament.finishing import unfinish
from tournament.model import (
    FINAL_STATUSES,
    EntryStatus,
    MatchStatus,
    PlayerId,
    Refused,
    Stage,
    TournamentStatus,
)
from tournament.round_robin import pairings_of
from tournament.scoring import winning_score
from tournament.stages import (
    GROUP_STAGES,
    MAIN_STAGES,
    all_standings,
    bracket_of,
    drawn_rank,
    followed_up,
    qualifiers_of,
    restart,
    stage_context,
    stage_facts,
    standings_of,
    touched,
    winners,
)
from tournament.standings import Standings
from tournament.state import DrawRecord, Group, Match, TournamentState, minutes

# From this many group matches and extra games on, the group stage is compared whole.
_WHOLE_STAGE_FROM = 700
_STATUS = attrgetter("status")

# The public face of a tournament's progress; the steps live in stages, extra_games,
# advance and finishing.
__all__ = [
    "GROUP_STAGES",
    "MAIN_STAGES",
    "all_standings",
    "bracket_of",
    "draw",
    "followed_up",
    "held",
    "open_ties",
    "qualifiers_of",
    "restart",
    "settle",
    "settle_by_lot",
    "standings_of",
    "touched",
    "winners",
    "without_winner",
]


def draw(
    state: TournamentState,
    ranking: Sequence[PlayerId],
    at: datetime,
    *,
    seed: int | None = None,
    barred: frozenset[PlayerId] = frozenset(),
) -> list[Event]:
    """Draw the groups and publish their round robins (HGV-7.2.1, NAV-I, HGV-2.3.4).

    The `barred` players, suspended from this tournament (HGV-2.3.5, HGV-2.3.6), are not
    drawn: an entry made before the suspension was decided is taken out here.
    """
    if state.status is not TournamentStatus.REGISTRATION:
        raise Refused("already_drawn", tournament=state.name)
    taken_out: list[PlayerId] = []
    for player in sorted(barred):
        entry = state.entries.get(player)
        if entry is not None and entry.status is EntryStatus.ACTIVE:
            entry.status = EntryStatus.REMOVED
            entry.withdrawn_at = at
            taken_out.append(player)
    players = [
        p for p in state.playing() if state.entries[p].confirmed or state.entries[p].checked_in
    ]
    if len(players) < 2:
        raise Refused("too_few_players", count=len(players), minimum=2)
    drawn = set(players)  # a list's `in` made the draw quadratic in the players
    left_out: list[PlayerId] = []
    for entry in state.entries.values():
        # Neither confirmed nor here: they are not drawn, and owe nothing (HGV-2.3.6).
        if entry.status is EntryStatus.ACTIVE and entry.player not in drawn:
            entry.status = EntryStatus.WITHDRAWN
            entry.withdrawn_at = at
            left_out.append(entry.player)
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
    scheduled = _schedule_groups(state, at)
    state.status = TournamentStatus.GROUPS
    events: list[Event] = [
        GroupsDrawn(
            at=at,
            groups=len(state.groups),
            matches=scheduled,
            seed=seed,
            barred=tuple(taken_out),
            left_out=tuple(left_out),
        )
    ]
    return events + settle(state, at)


def _schedule_groups(state: TournamentState, at: datetime) -> int:
    """Add every group's round robin, numbered round by round across the groups; return
    how many matches were scheduled."""
    start = max(state.start, at)
    rules = state.preset.groups
    # Bucketed by round: within a round the groups come in order, and each group's
    # pairings in its own order (`pairings_of` lists them by round, then by table).
    by_round: dict[int, list[tuple[str, PlayerId, PlayerId]]] = {}
    for group in state.groups:
        for round_, white, black in pairings_of(group.players, start, rules.round_minutes):
            by_round.setdefault(round_, []).append((group.name, white, black))
    step = minutes(rules.round_minutes)
    number = first = state.next_match_number()
    for round_ in sorted(by_round):
        when = start + (round_ - 1) * step
        for group_name, white, black in by_round[round_]:
            state.matches[number] = Match(
                number=number,
                stage=Stage.GROUP,
                round=round_,
                length=rules.match_length,
                white=white,
                black=black,
                start=when,
                group=group_name,
                created_at=at,
            )
            number += 1
    return number - first


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
    # The group stage's facts are read once, compared at once and passed on (unless a
    # step changes them) after the group stage, when they mostly stay as they were, and
    # in a large one, whose groups each cost more compared on their own. In a club
    # night's group stage each group is compared on its own: a result touches one. Once
    # every group match and extra game is final, the group stage is compared whole
    # already: the knockout's settles then find what this one remembered.
    group_stage = state.indexed().stage(*GROUP_STAGES)
    whole = (
        state.status is not TournamentStatus.GROUPS
        or len(group_stage) >= _WHOLE_STAGE_FROM
        or FINAL_STATUSES.issuperset(map(_STATUS, group_stage))  # every one final
    )
    facts = stage_facts(state) if whole else None
    if facts is not None:
        # The group stage as it was at the last settle that found it over, with nothing
        # to void or schedule (`stage_facts` returns the same list while its facts are
        # unchanged, `stage_context` the same tuple): the same tables, and nothing else
        # of the group stage to do.
        over = state.memo.get("group_stage_over")
        if over is not None:
            before = cast(tuple[object, object], over[0])
            if before[0] is facts and before[1] is stage_context(state):
                tables = dict(cast(dict[str, Standings], over[1]))
                return _after_group_stage(state, tables, at, reset, facts, events)
    voided = void_stale_extra_games(state, at, facts=facts)
    if voided:
        events.extend(voided)
        facts = None if facts is None else stage_facts(state)
    open_groups = _open_groups(state, facts)
    complete = [group for group in state.groups if group.name not in open_groups]
    complete_tables = all_standings(state, complete, facts=facts) if complete else {}
    if complete:
        scheduled = schedule_extra_games(state, complete_tables, at)
        events.extend(scheduled)
        # The groups given new extra games are open again: those games are to play.
        open_groups.update(
            e.group for e in scheduled if isinstance(e, ExtraGamesScheduled) and e.matches
        )
    if open_groups:
        if state.status is not TournamentStatus.GROUPS:
            # A correction reopened the group stage after the knockout was drawn: the
            # bracket keeps its pairings, and the matches not yet played whose pairing
            # depends on an open group wait for it (`held`); nothing else is invented.
            events.extend(hold_unready(state, at))
            events.extend(advance(state, at, reset=reset, finish=False))
            events.extend(vacate_last_chance(state, at))
        events.extend(unfinish(state, at))
        return events
    # From here on the group stage is over and nothing below changes a group match or
    # an extra game: the standings read now hold for the rest of this settle.
    # Every group was complete before any extra game could be added: no game was added.
    tables = complete_tables
    if facts is not None and not events:
        # Nothing voided or scheduled: these facts are the group stage's from now on.
        state.memo["group_stage_over"] = ((facts, stage_context(state)), dict(tables))
    else:
        state.memo.pop("group_stage_over", None)
    return _after_group_stage(state, tables, at, reset, facts, events)


def _after_group_stage(
    state: TournamentState,
    tables: dict[str, Standings],
    at: datetime,
    reset: bool,
    facts: list[tuple[object, ...]] | None,
    events: list[Event],
) -> list[Event]:
    """Start the knockout, or make it follow the final group `tables`; `settle`'s rest."""
    if state.status is TournamentStatus.GROUPS:
        events.extend(start_knockout(state, tables, at))
    else:
        events.extend(reseed(state, tables, at, reset=reset, facts=facts))
    if any(isinstance(e, PairingsConflict) for e in events):
        # The results contradict a played pairing: nothing more is derived (no pairing,
        # no "Last Chance", no placements) until a director decides.
        return events
    events.extend(advance(state, at, reset=reset, tables=tables))
    return events


def _open_groups(state: TournamentState, facts: list[tuple[object, ...]] | None) -> set[object]:
    """Return the groups with a group match or an extra game not yet final."""
    if facts is not None:
        # The same facts (`stage_facts` returns the same list while unchanged): the same
        # open groups.
        remembered = state.memo.get("open")
        if remembered is not None and remembered[0] is facts:
            return set(cast(frozenset[object], remembered[1]))
        # STAGE_FACTS: the group, then the status.
        found = {fact[1] for fact in facts if fact[2] not in FINAL_STATUSES}
        state.memo["open"] = (facts, frozenset(found))
        return found
    index = state.indexed()
    return {
        m.group
        for stage in GROUP_STAGES
        for m in index.stage(stage)
        if m.status not in FINAL_STATUSES
    }


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
    # Drawn as their places among the drawn players, not their ids (stages.drawn_rank).
    rank = drawn_rank(state)
    labels = [rank(p) for p in players]
    player_of = dict(zip(labels, players, strict=True))
    random.Random(f"lot:{seed}:{','.join(map(str, labels))}").shuffle(labels)
    order = [player_of[label] for label in labels]
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


def standing_conflicts(state: TournamentState, at: datetime) -> tuple[int, ...]:
    """Return the played bracket matches the results no longer give, that wait for a
    director: a settle leaves them as they are and derives nothing after them (the
    knockout stands still), so the director is shown them until one is decided."""
    if state.status is not TournamentStatus.KNOCKOUT:
        # Before it nothing is played in a bracket; after it every match is final, and a
        # correction that would undo a played one is asked for, and then starts it afresh.
        return ()
    found: dict[int, None] = {}
    # On a copy: what a settle would say now, without changing anything.
    for event in settle(copy.deepcopy(state), at):
        if isinstance(event, PairingsConflict):
            found.update(dict.fromkeys(event.matches))
    return tuple(found)


# `state.done` keys of the contradicted pairings announced already (see `said_once`).
CONFLICT = "conflict"


def said_once(state: TournamentState, events: list[Event], at: datetime) -> list[Event]:
    """Return the events without a `PairingsConflict` announced already.

    A settle lists the played matches the results contradict each time it runs, until a
    director decides: announced at every later command, the same warning filled the
    club's channel. It is said once (each set of matches), and shown by /status
    (`standing_conflicts`); once the results no longer contradict them, it is forgotten.
    """
    if not any(isinstance(e, PairingsConflict) for e in events):
        if CONFLICT in state.done and not standing_conflicts(state, at):
            state.done = {k: v for k, v in state.done.items() if not k.startswith(CONFLICT)}
        return events
    kept: list[Event] = []
    for event in events:
        if isinstance(event, PairingsConflict):
            key = f"{CONFLICT}:{','.join(map(str, sorted(event.matches)))}"
            if key in state.done:
                continue
            state.done[key] = state.done[CONFLICT] = at
        kept.append(event)
    return kept
