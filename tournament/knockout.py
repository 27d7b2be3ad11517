"""Knockout brackets: seeding, play-in, crossover, advancing winners, forfeits.

HGV-7.3.1: the bracket is fixed in advance from the group results, with a play-in
("repechaje") round when the qualifier count is not a power of two. NAV-II: crossover
A1-B2, B1-A2. NAV-IV: third-place match. HGV-7.4.13: "Last Chance" consolation bracket.
HGV-2.3.8: a knockout forfeiter is replaced by the last player they eliminated. WAR-V:
the last 8 of a draughts event play a knockout. Lengths come from `KnockoutRules`.

A bracket is a value. `winners` (match key -> winner) is the caller's record of the
decided matches; `advance` returns the bracket with every side those winners fill.
Placements, finalists and the champion are in `tournament.placements`.

Over 500 lines on purpose (518): building, advancing and replacing a forfeiter all walk
the same private links between a bracket's matches (`_links`, `_apply`, `_occupant`);
split apart they would have to share those internals across modules.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import field

from tournament.frozen import frozen
from tournament.model import PlayerId, Refused, Stage
from tournament.preset import KnockoutRules

KNOCKOUT_PREFIX = "KO"
CONSOLATION_PREFIX = "LC"
PLAY_IN = "play_in"
FINAL = "final"
SEMI_FINAL = "semi_final"
QUARTER_FINAL = "quarter_final"
THIRD_PLACE = "third_place"

Rematch = Callable[[PlayerId, PlayerId], bool]


@frozen
class BracketMatch:
    key: str
    stage: Stage
    round: int
    round_name: str
    index: int
    length: int
    white: PlayerId | None
    black: PlayerId | None
    white_from: str | None
    black_from: str | None

    @property
    def players(self) -> tuple[PlayerId, ...]:
        """Return the known players of this match, white first."""
        return tuple(p for p in (self.white, self.black) if p is not None)


@frozen
class Substitution:
    """In `match_key`, `replacement` plays instead of `forfeiter` (HGV-2.3.8)."""

    match_key: str
    forfeiter: PlayerId
    replacement: PlayerId


@frozen
class Bracket:
    stage: Stage
    seeds: tuple[PlayerId, ...]
    matches: tuple[BracketMatch, ...]
    substitutions: tuple[Substitution, ...] = ()
    # What `advance` last applied, so the next call only redoes what changed; it is
    # derived data, never compared, and a bracket made any other way starts without it.
    _progress: _Progress | None = field(default=None, init=False, repr=False, compare=False)

    def by_key(self) -> dict[str, BracketMatch]:
        """Return the matches indexed by key."""
        return {m.key: m for m in self.matches}


@frozen
class _Links:
    """Where every match sends its winner: positions in `Bracket.matches`."""

    positions: Mapping[str, int]
    targets: Mapping[str, tuple[tuple[int, bool], ...]]  # key -> (position, white side)
    third_place: tuple[int, ...]
    final: int | None


@frozen
class _Progress:
    links: _Links
    applied: Mapping[str, PlayerId]  # the winners the sides reflect
    ready: frozenset[int]  # positions of the undecided matches with both players known


def round_name(entering: int) -> str:
    """Return the name of a main round that `entering` players start."""
    names = {2: FINAL, 4: SEMI_FINAL, 8: QUARTER_FINAL}
    return names.get(entering, f"last_{entering}")


def bracket_layout(qualifiers: int) -> tuple[int, int]:
    """Return (main bracket size, play-in matches) for a qualifier count."""
    if qualifiers < 1:
        return 0, 0
    size = 1 << (qualifiers.bit_length() - 1)
    return size, qualifiers - size


def seed_positions(size: int) -> list[int]:
    """Return the seeds of a main bracket in bracket order, top first (1, size, ...)."""
    positions = [1]
    while len(positions) < size:
        width = 2 * len(positions)
        # Each seed's first opponent mirrors it, so 1 and 2 meet only in the final.
        positions = [seed for top in positions for seed in (top, width + 1 - top)]
    return positions


def knockout_seeds(qualifiers_by_group: Sequence[Sequence[PlayerId]]) -> tuple[PlayerId, ...]:
    """Return the seed order: group winners in group order, then runners-up, and so on."""
    depth = max((len(group) for group in qualifiers_by_group), default=0)
    order = tuple(
        group[place]
        for place in range(depth)
        for group in qualifiers_by_group
        if place < len(group)
    )
    _check_unique(order)
    return order


def build_bracket(
    qualifiers_by_group: Sequence[Sequence[PlayerId]],
    played: Collection[frozenset[PlayerId]],
    rules: KnockoutRules,
) -> Bracket:
    """Return the knockout bracket fixed from the group results (HGV-7.3.1, NAV-II)."""
    groups = [tuple(group) for group in qualifiers_by_group if group]
    order = list(knockout_seeds(groups))
    if rules.pairing == "crossover":
        order = _crossover_order(groups) or order
    if rules.avoid_group_rematch:
        group_of = {player: number for number, group in enumerate(groups) for player in group}
        pairs = set(played)

        def rematch(a: PlayerId, b: PlayerId) -> bool:
            return group_of[a] == group_of[b] or frozenset((a, b)) in pairs

        avoid_rematches(order, rematch)

    def length_of(name: str) -> int:
        lengths = {
            FINAL: rules.final_length,
            SEMI_FINAL: rules.semi_final_length,
            THIRD_PLACE: rules.third_place_length,
        }
        return lengths.get(name, rules.match_length)

    return _assemble(order, Stage.KNOCKOUT, KNOCKOUT_PREFIX, length_of, rules.third_place)


def build_consolation(
    players: Sequence[PlayerId],
    played: Collection[frozenset[PlayerId]],
    rules: KnockoutRules,
) -> Bracket | None:
    """Return the "Last Chance" bracket (HGV-7.4.13), or None when off or too few play."""
    order = list(players)
    _check_unique(order)
    if not rules.consolation or len(order) < 2:
        return None
    if rules.avoid_group_rematch:
        pairs = set(played)
        avoid_rematches(order, lambda a, b: frozenset((a, b)) in pairs)
    return _assemble(
        order,
        Stage.CONSOLATION,
        CONSOLATION_PREFIX,
        lambda _name: rules.consolation_length,
        third_place=False,
    )


def first_round_pools(qualifiers: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Return the first-round seed pairs known in advance: play-ins, then direct pairs.

    Pairs are (higher seed, lower seed). A main-bracket pair with a play-in slot is left
    out: that opponent is not known yet.
    """
    size, play_ins = bracket_layout(qualifiers)
    if size < 2 and not play_ins:
        return ()
    play_in = tuple((seed, 2 * size + 1 - seed) for seed in range(size - play_ins + 1, size + 1))
    direct = tuple((seed, size + 1 - seed) for seed in range(play_ins + 1, size // 2 + 1))
    return play_in, direct


def avoid_rematches(order: list[PlayerId], rematch: Rematch) -> None:
    """Swap lower seeds between first-round pairs in place so no pair is a rematch.

    A pair that meets again takes the nearest lower seed of another pair of its pool
    (play-in or direct), the weaker one first on a tie, provided neither new pair is a
    rematch. Each swap removes at least one rematch, so the passes end; pairs no swap
    can mend are left as they are.
    """
    for pool in first_round_pools(len(order)):
        swapped = True
        while swapped:
            swapped = False
            for i, (high, low) in enumerate(pool):
                if not rematch(order[high - 1], order[low - 1]):
                    continue
                for j in _nearest(i, len(pool)):
                    other_high, other_low = pool[j]
                    if rematch(order[high - 1], order[other_low - 1]) or rematch(
                        order[other_high - 1], order[low - 1]
                    ):
                        continue
                    order[low - 1], order[other_low - 1] = order[other_low - 1], order[low - 1]
                    swapped = True
                    break


def advance(bracket: Bracket, winners: Mapping[str, PlayerId]) -> Bracket:
    """Return the bracket with every side filled that a decided feeding match fills.

    Keys of `winners` that are not matches of this bracket are ignored, so one record
    can serve the main and the consolation bracket.
    """
    current = dict(winners)
    progress = bracket._progress
    if progress is None:
        links = _links(bracket.matches)
        return _apply(bracket, links, current, links.positions, set(), set())
    if progress.applied == current:
        return bracket
    # Only what changed since the last call is redone: a result per call stays cheap
    # even in a 4,000-player bracket.
    changed = {key for key, _ in current.items() ^ progress.applied.items()}
    return _apply(bracket, progress.links, current, changed, set(), set(progress.ready))


def ready_matches(bracket: Bracket, winners: Mapping[str, PlayerId]) -> tuple[BracketMatch, ...]:
    """Return the undecided matches whose two players are known, in bracket order."""
    current = advance(bracket, winners)
    ready = current._progress.ready if current._progress is not None else frozenset()
    return tuple(current.matches[p] for p in sorted(ready))


def replace_forfeiter(
    bracket: Bracket,
    winners: Mapping[str, PlayerId],
    match_key: str,
    forfeiter: PlayerId,
) -> tuple[Bracket, PlayerId | None]:
    """Return the bracket with the forfeiter's last victim in their place (HGV-2.3.8).

    Returns the bracket unchanged and None when the forfeiter won no match of this
    bracket to get here (their first match, or the third-place match, reached by
    losing), or when that victim has played the third-place match since: then the
    opponent simply wins by forfeit.
    """
    current = advance(bracket, winners)
    matches = current.by_key()
    match = matches.get(match_key)
    if match is None:
        raise Refused("bracket_unknown_match", match=match_key)
    if match_key in winners:
        raise Refused("bracket_match_decided", match=match_key)
    if forfeiter not in match.players:
        raise Refused("bracket_player_not_in_match", match=match_key, player=forfeiter)
    if match.stage is Stage.THIRD_PLACE:
        return bracket, None
    source = match.white_from if match.white == forfeiter else match.black_from
    while source is not None:
        feeder = matches[source]
        if winners.get(source) == forfeiter:
            victim = feeder.black if feeder.white == forfeiter else feeder.white
            if victim is None:  # pragma: no cover - a decided match has both sides
                break
            if any(m.key in winners and victim in m.players for m in _third_places(current)):
                # The victim already played the third-place match (NAV-IV): that result
                # stands, and the opponent simply wins the final by forfeit.
                break
            sub = Substitution(match_key, forfeiter, victim)
            subs = (*current.substitutions, sub)
            moved = Bracket(current.stage, current.seeds, current.matches, subs)
            return advance(moved, winners), victim
        # The forfeiter is here as someone's replacement: their own last win is further
        # back along the path they came by.
        if feeder.white == forfeiter:
            source = feeder.white_from
        elif feeder.black == forfeiter:
            source = feeder.black_from
        else:
            source = None
    return bracket, None


def _third_places(bracket: Bracket) -> Iterable[BracketMatch]:
    """Return the bracket's third-place match, if it has one."""
    return (m for m in bracket.matches if m.stage is Stage.THIRD_PLACE)


def _assemble(
    order: Sequence[PlayerId],
    stage: Stage,
    prefix: str,
    length_of: Callable[[str], int],
    third_place: bool,
) -> Bracket:
    """Return the bracket for seeds in `order`: play-ins, main rounds, third place."""
    seeds = tuple(order)
    size, play_ins = bracket_layout(len(seeds))
    if size < 2 and not play_ins:
        return Bracket(stage, seeds, ())
    positions = seed_positions(size)
    direct = size - play_ins
    matches: list[BracketMatch] = []
    feeder: dict[int, str] = {}
    length = length_of(PLAY_IN)
    for seed in positions:
        if seed > direct:
            index = len(feeder) + 1
            key = f"{prefix}-R1-{index}"
            feeder[seed] = key
            # The play-in winner takes the slot of the higher seed of the pair.
            top, bottom = seeds[seed - 1], seeds[2 * size - seed]
            matches.append(
                BracketMatch(key, stage, 1, PLAY_IN, index, length, top, bottom, None, None)
            )
    round_no = 2 if play_ins else 1
    sides: list[tuple[PlayerId | None, str | None]] = [
        (None, feeder[seed]) if seed in feeder else (seeds[seed - 1], None) for seed in positions
    ]
    semis: list[str] = []
    while len(sides) > 1:
        name = round_name(len(sides))
        length = length_of(name)
        keys: list[str] = []
        for i in range(0, len(sides), 2):
            index = i // 2 + 1
            key = f"{prefix}-R{round_no}-{index}"
            (white, white_from), (black, black_from) = sides[i], sides[i + 1]
            matches.append(
                BracketMatch(
                    key,
                    stage,
                    round_no,
                    name,
                    index,
                    length,
                    white,
                    black,
                    white_from,
                    black_from,
                )
            )
            keys.append(key)
        if name == SEMI_FINAL:
            semis = keys
        sides = [(None, key) for key in keys]
        round_no += 1
    if third_place and semis:
        key = f"{prefix}-3RD"
        length = length_of(THIRD_PLACE)
        matches.append(
            BracketMatch(
                key,
                Stage.THIRD_PLACE,
                round_no - 1,
                THIRD_PLACE,
                1,
                length,
                None,
                None,
                semis[0],
                semis[1],
            )
        )
    bracket = Bracket(stage, seeds, tuple(matches))
    return _apply(bracket, _links(bracket.matches), {}, (), set(range(len(matches))), set())


def _crossover_order(groups: Sequence[Sequence[PlayerId]]) -> list[PlayerId] | None:
    """Return a seed order whose seeded bracket is the NAV-II crossover, if it applies.

    Applies when every group sends exactly 2 and the 2G qualifiers, G even, fill a
    power-of-two bracket. Winners keep seeds 1..G (group order, so A1 and B1 are in
    opposite halves); the runner-up seeded to face winner i is the partner group's.
    """
    count = len(groups)
    # 2G a power of two with G even is G a power of two from 2 up.
    if count < 2 or count & (count - 1) or any(len(g) != 2 for g in groups):
        return None
    winners = [group[0] for group in groups]
    # Seed count+1+k faces seed count-k; partner groups are (0, 1), (2, 3), ...
    runners_up = [groups[(count - 1 - k) ^ 1][1] for k in range(count)]
    return winners + runners_up


def _nearest(i: int, count: int) -> list[int]:
    """Return the other pool indexes by distance from i; the weaker lower seed first."""
    order: list[int] = []
    for distance in range(1, count):
        # Pools list pairs by higher seed, so an earlier pair has the weaker lower seed.
        order.extend(j for j in (i - distance, i + distance) if 0 <= j < count)
    return order


def _links(matches: Sequence[BracketMatch]) -> _Links:
    """Return where each match of a bracket sends its winner."""
    positions = {m.key: p for p, m in enumerate(matches)}
    targets: dict[str, list[tuple[int, bool]]] = {}
    for p, m in enumerate(matches):
        if m.stage is Stage.THIRD_PLACE:
            continue
        if m.white_from is not None:
            targets.setdefault(m.white_from, []).append((p, True))
        if m.black_from is not None:
            targets.setdefault(m.black_from, []).append((p, False))
    third = tuple(p for p, m in enumerate(matches) if m.stage is Stage.THIRD_PLACE)
    final = next((p for p, m in enumerate(matches) if is_final(m)), None)
    return _Links(positions, {k: tuple(v) for k, v in targets.items()}, third, final)


def _apply(
    bracket: Bracket,
    links: _Links,
    winners: dict[str, PlayerId],
    sources: Iterable[str],
    touched: set[int],
    ready: set[int],
) -> Bracket:
    """Return the bracket with the sides fed by `sources` recomputed from `winners`."""
    subs = {(s.match_key, s.forfeiter): s.replacement for s in bracket.substitutions}
    matches = list(bracket.matches)
    for source in sources:
        position = links.positions.get(source)
        if position is None:
            continue
        touched.add(position)
        winner = winners.get(source)
        for target, white_side in links.targets.get(source, ()):
            match = matches[target]
            player = _occupant(match.key, winner, subs) if subs else winner
            if player != (match.white if white_side else match.black):
                white, black = (player, match.black) if white_side else (match.white, player)
                matches[target] = _with_sides(match, white, black)
                touched.add(target)
    for target in links.third_place:
        match = matches[target]
        white = _semi_loser(match.white_from, matches, links, winners)
        black = _semi_loser(match.black_from, matches, links, winners)
        if (white, black) != (match.white, match.black):
            matches[target] = _with_sides(match, white, black)
        touched.add(target)
    for position in touched:
        match = matches[position]
        winner = winners.get(match.key)
        if winner is not None and winner != match.white and winner != match.black:
            raise Refused("bracket_winner_not_in_match", match=match.key, winner=winner)
        if winner is None and match.white is not None and match.black is not None:
            ready.add(position)
        else:
            ready.discard(position)
    result = Bracket(bracket.stage, bracket.seeds, tuple(matches), bracket.substitutions)
    object.__setattr__(result, "_progress", _Progress(links, winners, frozenset(ready)))
    return result


def _occupant(
    key: str, winner: PlayerId | None, subs: Mapping[tuple[str, PlayerId], PlayerId]
) -> PlayerId | None:
    """Return who plays in match `key` for the feeding winner, after replacements."""
    for _ in range(len(subs)):
        if winner is None or (key, winner) not in subs:
            break
        winner = subs[(key, winner)]
    return winner


def _semi_loser(
    source: str | None,
    matches: Sequence[BracketMatch],
    links: _Links,
    winners: Mapping[str, PlayerId],
) -> PlayerId | None:
    """Return who goes to the third-place match from a semi-final (NAV-IV)."""
    winner = winners.get(source) if source is not None else None
    if source is None or winner is None:
        return None
    semi = matches[links.positions[source]]
    loser = semi.black if semi.white == winner else semi.white
    final = matches[links.final] if links.final is not None else None
    # When the loser replaced a final forfeiter (HGV-2.3.8), the forfeiter drops here.
    return winner if final is not None and loser in final.players else loser


def is_final(match: BracketMatch) -> bool:
    """Return whether the match is the final of its bracket."""
    return match.round_name == FINAL and match.stage is not Stage.THIRD_PLACE


def _with_sides(
    match: BracketMatch, white: PlayerId | None, black: PlayerId | None
) -> BracketMatch:
    """Return the match with new sides (dataclasses.replace is several times slower)."""
    m = match
    return BracketMatch(
        m.key,
        m.stage,
        m.round,
        m.round_name,
        m.index,
        m.length,
        white,
        black,
        m.white_from,
        m.black_from,
    )


def _check_unique(players: Sequence[PlayerId]) -> None:
    """Refuse a player listed twice."""
    seen: set[PlayerId] = set()
    for player in players:
        if player in seen:
            raise Refused("bracket_duplicate_player", player=player)
        seen.add(player)
