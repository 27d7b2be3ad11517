"""Results of a knockout bracket: places, finalists, champion.

Losers of the round that R players enter share place R/2 + 1 (HGV-7.5 counts 3rd-4th,
5th-8th, ...); play-in losers share place B + 1 for a main bracket of B. A third-place
match (NAV-IV) splits the semi-final losers into 3 and 4.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tournament.knockout import SEMI_FINAL, Bracket, BracketMatch, advance, is_final
from tournament.model import PlayerId, Stage


def shared_ranges(places: Sequence[int | None]) -> dict[int, tuple[int, int]]:
    """Return the range of places each shared place stands for (PLACE-SHARE).

    Players knocked out at the same stage share the best place of their stage: the
    four quarter-final losers are all 5, and stand for 5th-8th. A place shared by n
    players covers P..P+n-1; a place held alone is (P, P).
    """
    counts: dict[int, int] = {}
    for place in places:
        if place is not None:
            counts[place] = counts.get(place, 0) + 1
    return {place: (place, place + count - 1) for place, count in counts.items()}


def is_finished(bracket: Bracket, winners: Mapping[str, PlayerId]) -> bool:
    """Return whether every match of the bracket is decided."""
    return all(m.key in winners for m in bracket.matches)


def final_match(bracket: Bracket) -> BracketMatch | None:
    """Return the final, or None for a bracket of fewer than 2 players."""
    return next((m for m in bracket.matches if is_final(m)), None)


def finalists(bracket: Bracket, winners: Mapping[str, PlayerId]) -> tuple[PlayerId, ...]:
    """Return the known players of the final (the "Last Chance" finalists, HGV-7.4.13)."""
    final = final_match(advance(bracket, winners))
    return final.players if final is not None else ()


def champion(bracket: Bracket, winners: Mapping[str, PlayerId]) -> PlayerId | None:
    """Return the winner of the bracket, or None while the final is undecided."""
    final = final_match(bracket)
    if final is None:
        return bracket.seeds[0] if len(bracket.seeds) == 1 else None
    return winners.get(final.key)


def placements(
    bracket: Bracket, winners: Mapping[str, PlayerId]
) -> tuple[tuple[int, PlayerId], ...]:
    """Return (place, player) for every placed player, best first; ties share a place.

    Only decided matches place anyone. A player's place comes from the last match they
    leave the bracket in, so a forfeiter replaced by their last victim (HGV-2.3.8) takes
    that victim's place, and the victim is placed by how far they then go.
    """
    if not bracket.matches:
        return ((1, bracket.seeds[0]),) if len(bracket.seeds) == 1 else ()
    current = advance(bracket, winners)
    matches = current.by_key()
    parent: dict[str, str] = {}
    for m in current.matches:
        if m.stage is not Stage.THIRD_PLACE:
            for source in (m.white_from, m.black_from):
                if source is not None:
                    parent[source] = m.key
    has_third = any(m.stage is Stage.THIRD_PLACE for m in current.matches)
    last_round = max(m.round for m in current.matches)
    place: dict[PlayerId, int] = {}
    for m in current.matches:
        winner = winners.get(m.key)
        if winner is None:
            continue
        loser = m.black if m.white == winner else m.white
        if loser is None:  # pragma: no cover - advance refuses such a winner
            continue
        if m.stage is Stage.THIRD_PLACE:
            place[winner], place[loser] = 3, 4
        elif is_final(m):
            place[winner], place[loser] = 1, 2
        elif not (has_third and m.round_name == SEMI_FINAL):  # else the 3RD match places
            after = matches.get(parent.get(m.key, ""))
            # A stored bracket may drop the link of a replaced forfeiter: then nobody
            # goes on from here, and a player who plays on is placed again later.
            goes_on = None
            if after is not None:
                goes_on = after.white if after.white_from == m.key else after.black
            # Losers of a round that R players enter share R/2 + 1; the play-in counts
            # as the main bracket's size B, so its losers share B + 1.
            band = 2 ** (last_round - m.round) + 1
            # Both sides read directly: `players` makes a tuple per match of the bracket.
            for player in (m.white, m.black):
                if player is not None and player != goes_on:
                    place[player] = band
    for m in current.matches:
        if m.key not in winners:
            for player in (m.white, m.black):
                if player is not None:
                    place.pop(player, None)  # still in contention
    rank = {player: i for i, player in enumerate(current.seeds)}
    ordered = sorted(place.items(), key=lambda item: (item[1], rank.get(item[0], len(rank))))
    return tuple((p, player) for player, p in ordered)
