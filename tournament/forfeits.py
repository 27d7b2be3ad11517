"""Forfeits (HGV-2.3.1), the knockout replacement (HGV-2.3.8) and no-shows (CLUB-NO-SHOW)."""

from __future__ import annotations

from datetime import datetime

from tournament import knockout, progress
from tournament.events import Event, MatchForfeited, NoShow, PlayerReplaced, SanctionRecorded
from tournament.model import EntryStatus, MatchStatus, PlayerId, Stage
from tournament.scoring import winning_score
from tournament.state import Match, TournamentState, minutes


def forfeit_match(
    state: TournamentState,
    match: Match,
    losers: tuple[PlayerId, ...],
    at: datetime,
    *,
    reason: str,
) -> list[Event]:
    """Record a forfeit; in the knockout the forfeiter's last victim may step in instead."""
    if match.is_final:
        return []
    both = set(losers) >= set(match.players)
    if not both and match.stage is Stage.KNOCKOUT:
        state.entries[losers[0]].knockout_forfeit = True
        replaced = _replace_in_knockout(state, match, losers[0], at)
        if replaced:
            return replaced
    elif match.stage in (Stage.KNOCKOUT, Stage.THIRD_PLACE):
        for loser in losers:
            state.entries[loser].knockout_forfeit = True
    match.forfeited_by = frozenset(match.players if both else losers)
    match.finished_at = at
    match.report = None
    if both:
        match.status = MatchStatus.DOUBLE_FORFEIT
        match.winner = None
    else:
        winner = match.opponent_of(losers[0])
        match.status = MatchStatus.FORFEIT
        match.winner = winner
        won = winning_score(state.preset.game, match.length)
        if winner == match.white:
            match.white_score = max(match.white_score, won)
        else:
            match.black_score = max(match.black_score, won)
    return [
        MatchForfeited(
            at=at,
            match=match.number,
            losers=tuple(sorted(match.forfeited_by)),
            winner=match.winner,
            reason=reason,
        )
    ]


def no_show(state: TournamentState, player: PlayerId, at: datetime) -> list[Event]:
    """Forfeit every remaining match of a confirmed player who never came (HGV-2.3.6)."""
    entry = state.entries[player]
    entry.status = EntryStatus.NO_SHOW
    entry.withdrawn_at = at  # when the forfeits it causes were recorded (see reinstate)
    events: list[Event] = [NoShow(at=at, player=player)]
    for match in state.matches_of(player):
        if match.is_final or not match.is_ready:
            continue
        opponent = match.opponent_of(player)
        assert opponent is not None
        absent_too = state.entries[opponent].status is EntryStatus.NO_SHOW
        if not absent_too and not state.entries[opponent].present_at(at):
            # Nobody wins by a no-show without coming: the lateness clock decides this
            # match, a win if the opponent arrives in time, else a double forfeit
            # (CLUB-BOTH-ABSENT) that makes them a no-show too.
            continue
        losers = (player, opponent) if absent_too else (player,)
        events.extend(forfeit_match(state, match, losers, at, reason="no_show"))
    events.append(SanctionRecorded(at=at, player=player, reason="no_show"))
    return events


def is_no_show(state: TournamentState, player: PlayerId, at: datetime) -> bool:
    """Return whether a forfeit at `at` makes the player a no-show (CLUB-NO-SHOW)."""
    entry = state.entries[player]
    came = any(span.start <= at for span in entry.presence)
    # A match played or being played says they came, checked in or not (a club whose
    # director types the results checks nobody in).
    played = any(
        m.status in _PLAYED and player not in m.forfeited_by for m in state.matches_of(player)
    )
    return entry.status is EntryStatus.ACTIVE and entry.confirmed and not came and not played


_PLAYED = frozenset(
    {MatchStatus.PLAYING, MatchStatus.PENDING, MatchStatus.DISPUTED, MatchStatus.FINISHED}
)


def _replace_in_knockout(
    state: TournamentState, match: Match, forfeiter: PlayerId, at: datetime
) -> list[Event]:
    bracket = progress.bracket_of(state, progress.MAIN_STAGES)
    if bracket is None or match.key is None:
        return []
    _, replacement = knockout.replace_forfeiter(
        bracket, progress.winners(state, progress.MAIN_STAGES), match.key, forfeiter
    )
    if replacement is None or _unavailable(state, replacement):
        return []
    if match.white == forfeiter:
        match.white, match.white_from = replacement, None
    else:
        match.black, match.black_from = replacement, None
    # A fresh match: the forfeiter's lateness does not count against the newcomer.
    for penalty in state.penalties.values():
        if penalty.match == match.number:
            penalty.cancelled = True
    match.white_score = match.black_score = 0
    match.games = ()
    match.start = at + minutes(state.preset.knockout.break_minutes)
    match.created_at = at
    return [
        PlayerReplaced(at=at, match=match.number, forfeiter=forfeiter, replacement=replacement)
    ]


def _unavailable(state: TournamentState, player: PlayerId) -> bool:
    """Return whether the forfeiter's last victim cannot step in (HGV-2.3.8).

    They left (HGV-2.3.5), forfeited a knockout match themselves (eliminated by their own
    forfeit, not by the forfeiter), or played on elsewhere since: a semi-final loser
    under way in the third-place match (NAV-IV), a play-in loser in a "Last Chance" that
    has begun (HGV-7.4.13). What was played stands, and the opponent simply wins by
    forfeit.
    """
    entry = state.entries[player]
    if entry.status is not EntryStatus.ACTIVE or entry.knockout_forfeit:
        return True
    index = state.indexed()
    third = index.stage(Stage.THIRD_PLACE)
    if any(m.key and progress.touched(m) and m.involves(player) for m in third):
        return True
    consolation = [m for m in index.stage(Stage.CONSOLATION) if m.key is not None]
    return any(m.involves(player) for m in consolation) and any(
        progress.touched(m) for m in consolation
    )
