"""Group standings and their tiebreaks (HGV-7.2.2, HGV-7.2.3, NAV-TIE, HGV-2.3.2, HGV-2.3.3).

Reading of the tiebreak chain: players level on match points form a block. The block is
measured by the first criterion (HGV-2.3.2's forfeit step when the preset asks for it,
then `GroupRules.tiebreaks` in order) that tells any of them apart. That criterion splits
the block into levels, and every level still holding two or more players restarts the
whole chain among just its members, as a mini-league ("among the tied players" then
means among that level). A criterion that separates nobody passes to the next one. The
chain always ends in a lot, so the order is always total.

NAV-TIE's extra game: when the extra games already played among a block do not settle
it and the block reaches into the qualifying places, `Standings.extra_games` asks for
them and the block is ordered provisionally by lot until their results are passed in;
below the qualifying places the lot settles it for good. Callers should schedule extra
games only once every group match is final: mid-group standings ask for them too.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, NamedTuple

from tournament.frozen import frozen
from tournament.model import PlayerId, Result
from tournament.preset import GroupRules, GroupTiebreak

TiebreakCriterion = GroupTiebreak | Literal["forfeit"]
"""What put one player above another: HGV-2.3.2's "forfeit" or a group tiebreak."""


class StandingRow(NamedTuple):
    """One player's line in the group table; removed rows (HGV-2.3.3) show zeros."""

    # A named tuple, not a frozen dataclass: every table of a settle makes a row per
    # player, and a frozen dataclass sets each field through object.__setattr__.

    player: PlayerId
    rank: int
    won: int
    lost: int
    points_for: int
    points_against: int
    forfeits: int
    removed: bool


class TiebreakNote(NamedTuple):
    """Why `above` is above `below`, two adjacent players level on match points.

    `values` are the numbers the criterion compared, above's first: wins or point
    differences, forfeit losses for "forfeit", and the places drawn (1 = first) for
    "lot". `among` lists the players the criterion was applied to, in final order.
    """

    # A named tuple, as the rows: most tables of a night have a tie or two.

    above: PlayerId
    below: PlayerId
    criterion: TiebreakCriterion
    values: tuple[int, int]
    among: tuple[PlayerId, ...]


@frozen
class ExtraGameNeeded:
    """Players still level who must play extra single games among them (NAV-TIE)."""

    players: tuple[PlayerId, ...]


@frozen
class Standings:
    """A group's table in final order, why ties went as they did, and what is missing."""

    rows: tuple[StandingRow, ...]
    notes: tuple[TiebreakNote, ...]
    extra_games: tuple[ExtraGameNeeded, ...]

    @property
    def order(self) -> tuple[PlayerId, ...]:
        return tuple(row.player for row in self.rows)


@dataclass(slots=True)
class _Record:
    won: int = 0
    lost: int = 0
    points_for: int = 0
    points_against: int = 0
    forfeits: int = 0


def group_standings(
    players: Sequence[PlayerId],
    results: Sequence[Result],
    rules: GroupRules,
    *,
    lot_seed: int,
    extra_game_results: Sequence[Result] = (),
    lot_rank: Callable[[PlayerId], int] | None = None,
) -> Standings:
    """Return the group standings, tiebreaks applied, from the final group results.

    `lot_rank` gives the number a player enters a lot as, when not their id (a place
    in an order every database agrees on, tournament.stages.drawn_rank).
    """
    members = frozenset(players)
    if len(members) != len(players):
        raise ValueError("a player is listed twice in the group")
    _check(results, members)
    _check(extra_game_results, members)
    removed = _removed(players, results) if rules.void_single_win_forfeiter else set()
    counted: Sequence[Result] = results
    extra: Sequence[Result] = extra_game_results
    if removed:
        counted = [r for r in results if r.white not in removed and r.black not in removed]
        extra = [r for r in extra if r.white not in removed and r.black not in removed]
    records = {player: _Record() for player in players if player not in removed}
    for white_player, black_player, white_score, black_score, winner, forfeited_by in counted:
        # The hottest loop of a settle: counted inline, not through a call per result.
        white, black = records[white_player], records[black_player]
        # A double forfeit (winner None) is a loss for both and a win for nobody.
        if winner == white_player:
            white.won += 1
            black.lost += 1
        elif winner == black_player:
            black.won += 1
            white.lost += 1
        else:
            white.lost += 1
            black.lost += 1
        white.points_for += white_score
        white.points_against += black_score
        black.points_for += black_score
        black.points_against += white_score
        if forfeited_by:
            white.forfeits += white_player in forfeited_by
            black.forfeits += black_player in forfeited_by

    by_wins: dict[int, list[PlayerId]] = {}
    for player, record in records.items():
        by_wins.setdefault(record.won, []).append(player)
    resolver: _Resolver | None = None  # made for the first tie: many tables have none
    order: list[PlayerId] = []
    for won in sorted(by_wins, reverse=True):
        block = by_wins[won]
        if len(block) > 1:
            if resolver is None:
                resolver = _Resolver(records, counted, extra, rules, lot_seed, lot_rank)
            block = resolver.order(block, len(order), pending=False)
        order.extend(block)

    rows = []
    for rank, player in enumerate(order, 1):
        record = records[player]
        rows.append(
            StandingRow(
                player,
                rank,
                record.won,
                record.lost,
                record.points_for,
                record.points_against,
                record.forfeits,
                False,  # removed: a keyword costs as much again
            )
        )
    if removed:
        rows += [
            StandingRow(p, len(order) + i, 0, 0, 0, 0, 0, removed=True)
            for i, p in enumerate((p for p in players if p in removed), 1)
        ]
    if resolver is None:
        return Standings(tuple(rows), (), ())
    place = {player: index for index, player in enumerate(order)}
    notes = sorted(resolver.notes, key=lambda note: place[note.above])
    return Standings(tuple(rows), tuple(notes), tuple(resolver.extra_games))


def _check(results: Sequence[Result], members: frozenset[PlayerId]) -> None:
    """Refuse a result that is not a match of this group (one loop: no call per result)."""
    for white, black, _, _, winner, forfeited_by in results:
        if white == black or white not in members or black not in members:
            raise ValueError(f"result {white}-{black} is not a match of this group")
        if winner is not None and winner != white and winner != black:
            raise ValueError(f"winner {winner} did not play {white}-{black}")
        if forfeited_by and not forfeited_by <= {white, black}:
            raise ValueError(f"forfeit by a player outside {white}-{black}")


def _removed(players: Sequence[PlayerId], results: Sequence[Result]) -> set[PlayerId]:
    # Judged on the original results only, so one removal never cascades into another.
    own: dict[PlayerId, list[Result]] = {player: [] for player in players}
    for result in results:
        for player in result.players:
            own[player].append(result)
    return {
        player
        for player, matches in own.items()
        if len(matches) >= 2
        and sum(r.winner == player for r in matches) == 1
        and all(player in r.forfeited_by for r in matches if r.winner != player)
    }


def _index(results: Iterable[Result]) -> dict[PlayerId, list[Result]]:
    index: dict[PlayerId, list[Result]] = {}
    for result in results:
        for player in (result.white, result.black):
            listed = index.get(player)
            if listed is None:
                index[player] = [result]
            else:
                listed.append(result)
    return index


class _Resolver:
    """Orders blocks of players level on match points, collecting notes as it goes."""

    def __init__(
        self,
        records: Mapping[PlayerId, _Record],
        results: Sequence[Result],
        extra: Sequence[Result],
        rules: GroupRules,
        lot_seed: int,
        lot_rank: Callable[[PlayerId], int] | None = None,
    ) -> None:
        self._records = records
        # Indexed when a tie first needs them: most blocks are told apart without.
        self._counted = results
        self._counted_extra = extra
        self._results: Mapping[PlayerId, list[Result]] | None = None
        self._extra: Mapping[PlayerId, list[Result]] | None = None
        self._qualifiers = rules.qualifiers
        forfeit: tuple[TiebreakCriterion, ...] = (
            ("forfeit",) if rules.forfeit_below_in_ties else ()
        )
        # A trailing lot keeps the order total even for a chain that does not end in one.
        self._chain: tuple[TiebreakCriterion, ...] = (*forfeit, *rules.tiebreaks, "lot")
        self._lot_seed = lot_seed
        self._lot_rank = lot_rank
        self.notes: list[TiebreakNote] = []
        self.extra_games: list[ExtraGameNeeded] = []

    def order(self, block: Sequence[PlayerId], start: int, *, pending: bool) -> list[PlayerId]:
        """Return `block`, whose first player stands at 0-based place `start`, in order."""
        if len(block) < 2:
            return list(block)
        slot: int | None = None
        for criterion in self._chain:
            shown, rank = self._measure(criterion, block)
            if len(set(rank.values())) > 1:
                break  # "lot" always separates, so every block ends here
            if criterion == "extra_game" and not pending and start < self._qualifiers:
                slot = len(self.extra_games)
                self.extra_games.append(ExtraGameNeeded(()))
                pending = True
        ordered = self._split(block, criterion, shown, rank, start, pending=pending)
        if slot is not None:
            self.extra_games[slot] = ExtraGameNeeded(tuple(ordered))
        return ordered

    def _split(
        self,
        block: Sequence[PlayerId],
        criterion: TiebreakCriterion,
        shown: Mapping[PlayerId, int],
        rank: Mapping[PlayerId, int],
        start: int,
        *,
        pending: bool,
    ) -> list[PlayerId]:
        ordered: list[PlayerId] = []
        bounds: list[tuple[PlayerId, PlayerId]] = []
        for level in sorted(set(rank.values()), reverse=True):
            part = [player for player in block if rank[player] == level]
            if len(part) > 1:
                part = self.order(part, start + len(ordered), pending=pending)
            if ordered:
                bounds.append((ordered[-1], part[0]))
            ordered += part
        # The block keeps this order in the final table: its notes list it so.
        among = tuple(ordered)
        for above, below in bounds:
            values = (shown[above], shown[below])
            self.notes.append(TiebreakNote(above, below, criterion, values, among))
        return ordered

    def _measure(
        self, criterion: TiebreakCriterion, block: Sequence[PlayerId]
    ) -> tuple[dict[PlayerId, int], dict[PlayerId, int]]:
        """Return the values shown for `criterion` and the keys it ranks by, higher first."""
        if criterion == "forfeit":
            forfeits = {p: self._records[p].forfeits for p in block}
            return forfeits, {p: -min(count, 1) for p, count in forfeits.items()}
        if criterion in ("wins_among_tied", "head_to_head"):
            # For two players this is the winner of their match; a cycle stays level.
            values = self._among(block, self._played(), diff=False)
        elif criterion == "points_diff_among_tied":
            values = self._among(block, self._played(), diff=True)
        elif criterion == "points_diff_overall":
            values = {
                p: self._records[p].points_for - self._records[p].points_against for p in block
            }
        elif criterion == "extra_game":
            if self._extra is None:
                self._extra = _index(self._counted_extra)
            values = self._among(block, self._extra, diff=False)
        else:
            drawn = self._lot(block)
            return drawn, {p: -place for p, place in drawn.items()}
        return values, values

    def _played(self) -> Mapping[PlayerId, list[Result]]:
        if self._results is None:
            self._results = _index(self._counted)
        return self._results

    def _among(
        self, block: Sequence[PlayerId], index: Mapping[PlayerId, list[Result]], *, diff: bool
    ) -> dict[PlayerId, int]:
        inside = frozenset(block)
        values: dict[PlayerId, int] = {}
        for player in block:
            total = 0
            for result in index.get(player, ()):
                white = player == result.white
                if (result.black if white else result.white) not in inside:
                    continue
                if diff:
                    mine, theirs = result.white_score, result.black_score
                    total += mine - theirs if white else theirs - mine
                else:
                    total += result.winner == player
            values[player] = total
        return values

    def _lot(self, block: Sequence[PlayerId]) -> dict[PlayerId, int]:
        """Return each player's drawn place (1 = first), reproducible from the lot seed.

        Players enter the lot as their `lot_rank` (by default their ids): a database
        numbers players, and two databases may number the same players apart.
        """
        players = sorted(block)
        labels = tuple(players) if self._lot_rank is None else tuple(map(self._lot_rank, players))
        player_of = dict(zip(labels, players, strict=True))
        drawn = _drawn(self._lot_seed, labels)
        return {player_of[label]: place for place, label in enumerate(drawn, 1)}


@functools.lru_cache(maxsize=4096)
def _drawn(lot_seed: int, players: tuple[PlayerId, ...]) -> tuple[PlayerId, ...]:
    """Return `players` in the order a lot seeded by `lot_seed` draws them."""
    # Remembered: the same block is drawn again at every settle until its group changes,
    # and seeding a generator from a string (SHA-512) costs more than the rest of a table.
    drawn = list(players)
    # A string seed is hashed with SHA-512: stable across runs and PYTHONHASHSEED.
    rng = random.Random(f"{lot_seed}:{','.join(map(str, players))}")
    rng.shuffle(drawn)
    return tuple(drawn)
