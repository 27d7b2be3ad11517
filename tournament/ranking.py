"""Ranking points per tournament (HGV-7.5, HGV-2.3.8) and the tables built from them.

Points are money-like: every sum is done in `Decimal`, preset floats enter through
`Decimal(str(x))` (so 0.04 is 0.04, not 0.0400000000000000008), and a tournament's
points are rounded to 0.01 at the end.

Tables (HGV-8, HGV-NOVICE): the season table sums the official tournaments it is given
(the caller passes one season's records), the all-time table every official tournament
ever, the novice table only the points earned while in the novice category. Friendly
tournaments never count. A club that plays several games keeps its tables per game
(`for_game`); points carried over from before the bot (a club's imported ranking) are
the season so far and count in the season and all-time tables, shown apart.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import ROUND_HALF_UP, Decimal

from tournament.model import PlayerId
from tournament.preset import RankingRules, SeasonRules, SeasonTiebreak

CENT = Decimal("0.01")
ZERO = Decimal(0)


@dataclass(frozen=True, slots=True)
class Performance:
    """One player's tournament, as the ranking needs it.

    `place` is the final placement (ties share a place: both semi-final losers are 3);
    None when the player was not placed (group stage only). `knockout_wins` counts the
    main bracket and the third-place match; `consolation_wins` the "Last Chance"
    (HGV-7.4.13), whose finalists have `consolation_finalist` set.
    """

    player: PlayerId
    place: int | None
    group_wins: int
    knockout_wins: int
    consolation_finalist: bool
    knockout_forfeit: bool
    consolation_wins: int = 0


@dataclass(frozen=True, slots=True)
class TournamentRecord:
    """One finished tournament's contribution to the tables.

    A player took part when they are a key of `points`. `finalists` are the two
    players of the final (the champion is one of them).
    """

    tournament: str
    official: bool
    points: Mapping[PlayerId, Decimal]
    champion: PlayerId | None
    finalists: tuple[PlayerId, ...]
    novices: frozenset[PlayerId] = frozenset()
    game: str = "backgammon"
    # Names repeat across seasons ("January Cup" every year): tables pick by this id.
    tournament_id: int = 0


@dataclass(frozen=True, slots=True)
class RankingRow:
    """One line of a ranking table; `rank` is shared on a full tie (1, 2, 2, 4)."""

    rank: int
    player: PlayerId
    points: Decimal
    tournaments: int
    tournaments_won: int
    finals_played: int
    prize_eligible: bool
    carried: Decimal = ZERO  # of `points`, carried over from before the bot


def _money(value: float) -> Decimal:
    # str() gives the shortest repr, so 0.1 becomes Decimal("0.1"), not its binary value.
    return Decimal(str(value))


def place_points(rules: RankingRules, place: int | None) -> Decimal:
    """Return the points of a final placement (0 when unplaced or beyond the table)."""
    if place is None:
        return ZERO
    if place < 1:
        raise ValueError(f"place must be 1 or more, got {place}")
    for band in rules.places:
        if band.first <= place <= band.last:
            return _money(band.points)
    return ZERO


def tournament_points(rules: RankingRules, perf: Performance) -> Decimal:
    """Return a player's ranking points for one tournament, rounded to 0.01.

    Participation, place points, the "Last Chance" final bonus and the per-win points
    for every match won: group, knockout and consolation alike (HGV-7.5 says "each
    match won in the tournament"). A knockout forfeit (HGV-2.3.8) removes the
    knockout-stage part: the place points and the knockout wins. The group-stage part
    and the "Last Chance" part stay; the consolation is played by those who did not
    reach the knockout, so it is not the "second phase" the rule strips.
    """
    wins = (perf.group_wins, perf.knockout_wins, perf.consolation_wins)
    if min(wins) < 0:
        raise ValueError(f"win counts must not be negative, got {wins}")
    per_win = _money(rules.per_match_won)
    group_part = _money(rules.participation) + per_win * perf.group_wins
    knockout_part = place_points(rules, perf.place) + per_win * perf.knockout_wins
    consolation_part = per_win * perf.consolation_wins
    if perf.consolation_finalist:
        consolation_part += _money(rules.consolation_finalist)
    if perf.knockout_forfeit and rules.knockout_forfeit_loses_knockout_points:
        knockout_part = ZERO
    total = group_part + knockout_part + consolation_part
    return total.quantize(CENT, rounding=ROUND_HALF_UP)


@dataclass(slots=True)
class _Tally:
    points: Decimal = ZERO
    tournaments: int = 0
    won: int = 0
    finals: int = 0
    attended: int = 0
    carried: Decimal = ZERO


def default_game(games: Iterable[str]) -> str:
    """Return a club's default game: its only game, else backgammon (HGV-8 per game)."""
    distinct = set(games)
    return distinct.pop() if len(distinct) == 1 else "backgammon"


def for_game(records: Iterable[TournamentRecord], game: str) -> list[TournamentRecord]:
    """Return the records of one game: a draughts night never counts for backgammon."""
    return [record for record in records if record.game == game]


def _carry(tallies: dict[PlayerId, _Tally], carried: Mapping[PlayerId, Decimal]) -> None:
    for player, points in carried.items():
        tally = tallies.setdefault(player, _Tally())
        tally.points += points
        tally.carried += points


def _tally(
    records: Iterable[TournamentRecord], counts: Callable[[TournamentRecord, PlayerId], bool]
) -> dict[PlayerId, _Tally]:
    # `attended` counts every official tournament played, whatever `counts` keeps, because
    # prize attendance (HGV-8) is about coming to the club's events, not the category.
    tallies: dict[PlayerId, _Tally] = {}
    for record in records:
        if not record.official:
            continue
        finals = set(record.finalists)
        if record.champion is not None:
            finals.add(record.champion)
        for player in set(record.points) | finals:
            tally = tallies.setdefault(player, _Tally())
            tally.attended += 1
            if not counts(record, player):
                continue
            tally.points += record.points.get(player, ZERO)
            tally.tournaments += 1
            tally.won += record.champion == player
            tally.finals += player in finals
    return tallies


def _table(
    tallies: Mapping[PlayerId, _Tally],
    tiebreaks: Sequence[SeasonTiebreak],
    threshold: int | None,
    listed: Collection[PlayerId] | None = None,
) -> tuple[RankingRow, ...]:
    if listed is None:
        players = [p for p, t in tallies.items() if t.tournaments > 0 or t.carried]
    else:
        players = list(dict.fromkeys(listed))
    rows = [_row(player, tallies.get(player, _Tally()), threshold) for player in players]

    def merit(row: RankingRow) -> tuple[Decimal | int, ...]:
        values = {"tournaments_won": row.tournaments_won, "finals_played": row.finals_played}
        return (-row.points, *(-values[name] for name in tiebreaks))

    rows.sort(key=lambda row: (merit(row), row.player))
    ranked: list[RankingRow] = []
    for index, row in enumerate(rows):
        tied = ranked and merit(ranked[-1]) == merit(row)
        ranked.append(replace(row, rank=ranked[-1].rank if tied else index + 1))
    return tuple(ranked)


def _row(player: PlayerId, tally: _Tally, threshold: int | None) -> RankingRow:
    # rank 0 until the table is sorted
    eligible = threshold is not None and tally.attended >= threshold
    return RankingRow(
        0,
        player,
        tally.points,
        tally.tournaments,
        tally.won,
        tally.finals,
        eligible,
        tally.carried,
    )


def prize_threshold(rules: SeasonRules) -> int:
    """Return how many official tournaments a player needs for the annual prizes (HGV-8)."""
    # Decimal, because 0.6 * 10 in floats is 6.000000000000001 and would round up to 7.
    return math.ceil(_money(rules.prize_attendance) * rules.official_tournaments)


def season_table(
    records: Sequence[TournamentRecord],
    rules: SeasonRules,
    *,
    players: Collection[PlayerId] | None = None,
    carried: Mapping[PlayerId, Decimal] | None = None,
) -> tuple[RankingRow, ...]:
    """Return the season ranking of the official tournaments among `records` (HGV-8).

    Ties on points go to `rules.tiebreaks` in order, then the rank is shared and the
    players are listed by id. Without `players`, everyone who played an official
    tournament is listed; with it, exactly those players are (0 points when they have
    not played), e.g. to rank the entrants of the next tournament. `carried` points (the
    season so far, imported) are added to each player's total and shown apart.
    """
    tallies = _tally(records, lambda _record, _player: True)
    _carry(tallies, carried or {})
    return _table(tallies, rules.tiebreaks, prize_threshold(rules), players)


def all_time_table(
    records: Sequence[TournamentRecord],
    *,
    tiebreaks: Sequence[SeasonTiebreak] = ("tournaments_won", "finals_played"),
    carried: Mapping[PlayerId, Decimal] | None = None,
) -> tuple[RankingRow, ...]:
    """Return the all-time ranking over every official tournament (HGV-8).

    The tiebreaks default to HGV-8's order; pass a club's `SeasonRules.tiebreaks` to
    use its own. Nobody is prize eligible: prizes are per season.
    """
    tallies = _tally(records, lambda _record, _player: True)
    _carry(tallies, carried or {})
    return _table(tallies, tiebreaks, None)


def novice_table(
    records: Sequence[TournamentRecord], rules: SeasonRules
) -> tuple[RankingRow, ...]:
    """Return the novice ranking (HGV-NOVICE), or no rows when the club has none.

    Only points, wins and finals earned at events where the player was a novice count;
    prize eligibility uses every official tournament the player attended, in or out
    of the category.
    """
    if not rules.novice_category:
        return ()
    tallies = _tally(records, lambda record, player: player in record.novices)
    return _table(tallies, rules.tiebreaks, prize_threshold(rules))


def seed_ranking(
    rows: Sequence[RankingRow], imported: Sequence[tuple[PlayerId, Decimal]] = ()
) -> tuple[PlayerId, ...]:
    """Return the order that seeds the next draw (HGV-8, HGV-7.2.1).

    Each player's total is their imported points (a club's existing ranking, e.g. at
    the switch to the bot) plus their points in `rows`. Players are sorted by total,
    best first; equal totals keep the imported order, then the order of `rows`, so a
    ranking imported with ties stays as the club had it. Players found in neither are
    not listed: the caller appends debutants, who start at 0 (seed 004, 7.2.1).
    """
    totals: dict[PlayerId, Decimal] = {}
    for player, points in imported:
        if player in totals:
            raise ValueError(f"player {player} is imported twice")
        totals[player] = points
    for row in rows:
        totals[row.player] = totals.get(row.player, ZERO) + row.points
    # dicts keep insertion order: imported players first, then newcomers from `rows`.
    order = sorted(totals, key=lambda player: -totals[player])
    return tuple(order)
