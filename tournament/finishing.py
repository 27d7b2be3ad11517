"""The end of a tournament: placements and ranking points when the last match is final,
and taking them back when a correction reopens it.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from tournament import placements
from tournament.entry import youngest_and_veteran
from tournament.events import (
    Event,
    PlacementsChanged,
    TournamentFinished,
    TournamentReopened,
)
from tournament.model import (
    FINAL_STATUSES,
    EntryStatus,
    MatchStatus,
    PlayerId,
    Stage,
    TournamentStatus,
)
from tournament.preset import RankingRules
from tournament.ranking import Performance, tournament_points
from tournament.stages import (
    MAIN_STAGES,
    bracket_of,
    group_qualifiers,
    seeded_order,
    winners,
)
from tournament.standings import Standings
from tournament.state import Match, Placement, TournamentState

# Ranking points as placements show them, by ranking rules and performance: the points
# do not depend on who, the players of every night share a few performances, and
# Decimal sums cost more than the rest of a placement.
_Performance = tuple[int | None, int, int, bool, bool, int]
_SHOWN: dict[RankingRules, dict[_Performance, str]] = {}
_SHOWN_KEPT = 4096


def all_done(bracket: Iterable[Match]) -> bool:
    """Return whether every match of the brackets has a winner (a double forfeit waits)."""
    return all(m.status in FINAL_STATUSES and m.winner is not None for m in bracket)


def finish_tournament(
    state: TournamentState, at: datetime, tables: dict[str, Standings]
) -> list[Event]:
    """Place everyone with their ranking points and finish the tournament; after the
    finish (a correction), say so only when the placements changed (PLACE-SHARE)."""
    before = [(p.place, p.player, p.points) for p in state.placements]
    finished = state.status is TournamentStatus.FINISHED
    previous = next((p.player for p in state.placements if p.place == 1), None)
    state.placements = _placements(state, tables)
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


def _knockout_places(state: TournamentState, tables: dict[str, Standings]) -> dict[PlayerId, int]:
    """Return the places the knockout decided (or the lone qualifier's first place)."""
    main = bracket_of(state, MAIN_STAGES)
    places: dict[PlayerId, int] = {}
    if main is not None:
        main_winners = winners(state, MAIN_STAGES)
        places = {player: place for place, player in placements.placements(main, main_winners)}
    drawn = [p for g in state.groups for p in g.players]
    if main is None and len(drawn) >= 1:
        # A single qualifier is champion without a knockout match.
        seeded = seeded_order(state, MAIN_STAGES)
        qualifiers = [q for t in tables.values() for q in group_qualifiers(state, t, seeded)]
        if len(qualifiers) == 1:
            places[qualifiers[0]] = 1
    return places


def _stage_wins(state: TournamentState) -> tuple[dict[PlayerId, int], dict[PlayerId, int]]:
    """Return each player's final wins in the knockout and in the consolation."""
    index = state.indexed()
    return _wins(index.stage(*MAIN_STAGES)), _wins(index.stage(Stage.CONSOLATION))


def _wins(matches: Iterable[Match]) -> dict[PlayerId, int]:
    """Return each player's final wins among `matches`."""
    wins: dict[PlayerId, int] = {}
    for match in matches:
        winner = match.winner
        if winner is not None and match.status in FINAL_STATUSES:
            wins[winner] = wins.get(winner, 0) + 1
    return wins


def _placements(state: TournamentState, tables: dict[str, Standings]) -> list[Placement]:
    """Return every drawn player's place and ranking points, in the export's order."""
    places = _knockout_places(state, tables)
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
    knockout_wins, consolation_wins = _stage_wins(state)
    placed: list[Placement] = []
    shown = _SHOWN.get(state.preset.ranking)
    if shown is None or len(shown) >= _SHOWN_KEPT:
        if len(_SHOWN) >= _SHOWN_KEPT:
            _SHOWN.clear()
        shown = _SHOWN[state.preset.ranking] = {}
    entries = state.entries
    # A played match says a player came, checked in or not (a club whose director types
    # the results checks nobody in): one who then left keeps what they played for. Read
    # only for one who withdrew unseen: most nights have none.
    came: set[PlayerId] | None = None
    for player in [p for g in state.groups for p in g.players]:
        entry = entries[player]
        if entry.status is EntryStatus.NO_SHOW:
            continue  # never came: no points
        if entry.status is EntryStatus.WITHDRAWN and not entry.presence:
            if came is None:
                came = {
                    p
                    for m in state.matches.values()
                    if m.status is MatchStatus.FINISHED
                    for p in m.players
                }
            if player not in came:
                continue  # never came (an excused no-show is withdrawn): no points
        place = places.get(player)
        if place is None and entry.status is EntryStatus.ACTIVE and not entry.knockout_forfeit:
            place = unplaced_place
        performance = (
            place,
            group_wins.get(player, 0),
            knockout_wins.get(player, 0),
            player in finalists,
            entry.knockout_forfeit,
            consolation_wins.get(player, 0),
        )
        points = shown.get(performance)
        if points is None:
            points = shown[performance] = _points_text(state, *performance)
        placed.append(Placement(place, player, points))
    # Within a shared range, group-stage order: group winners in group order, then the
    # runners-up, and so on (PLACE-SHARE).
    order = {player: i for i, player in enumerate(_group_stage_order(state, tables))}
    placed.sort(
        key=lambda p: (p.place is None, p.place or 0, order.get(p.player, len(order)), p.player)
    )
    return placed


def _points_text(
    state: TournamentState,
    place: int | None,
    group_wins: int,
    knockout_wins: int,
    consolation_finalist: bool,
    knockout_forfeit: bool,
    consolation_wins: int,
) -> str:
    """Return the ranking points of a performance as placements show them, e.g. "2.30"."""
    performance = Performance(
        player=0,  # not read: the points depend on what was played, not on who
        place=place,
        group_wins=group_wins,
        knockout_wins=knockout_wins,
        consolation_finalist=consolation_finalist,
        knockout_forfeit=knockout_forfeit,
        consolation_wins=consolation_wins,
    )
    return f"{tournament_points(state.preset.ranking, performance):.2f}"


def _group_stage_order(
    state: TournamentState, tables_by_group: dict[str, Standings]
) -> list[PlayerId]:
    """Return every drawn player by group place, then group: 1st of each group, 2nd, ..."""
    tables = [tables_by_group[group.name] for group in state.groups]
    depth = max((len(t.rows) for t in tables), default=0)
    return [t.rows[place].player for place in range(depth) for t in tables if place < len(t.rows)]


def unfinish(state: TournamentState, at: datetime) -> list[Event]:
    """Withdraw the placements of a finished tournament that has an undecided match again."""
    if state.status is not TournamentStatus.FINISHED:
        return []
    state.status = TournamentStatus.KNOCKOUT
    state.placements = []
    state.finished_at = None
    return [TournamentReopened(at=at)]
