"""Reporting results (HGV-4.8, CLUB-REPORT, HGV-5.3, HGV-7.3.2).

A player's report is pending until the opponent accepts it, reports the same score, or
the preset's time-out passes; a contradicting report or a dispute waits for a director,
whose result is final.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from tournament import attendance, progress
from tournament.events import Event, MatchFinished, ReportDisputed, ReportPending
from tournament.model import NOBODY, MatchStatus, PlayerId, Refused, Stage
from tournament.scoring import (
    FinalScore,
    GameByGame,
    GameKind,
    GameRecord,
    Side,
    add_game,
    check_final_score,
    game_value,
)
from tournament.state import Match, Report, TournamentState, minutes


def report_score(
    state: TournamentState, number: int, by: PlayerId, score: FinalScore, at: datetime
) -> list[Event]:
    """Record `by`'s report of the final score (white first); it waits for the opponent.

    On a disputed match it is `by`'s own score for the director (CLUB-REPORT): when both
    players' scores then agree, the result is final.
    """
    match = _open_match(state, number, by, disputed=True)
    _check_started(state, match, at, by)
    checked = checked_score(state, match, score, floor=True)
    attendance.at_the_table(state, by, at)
    report = match.report
    if report is not None and report.by != by:
        if _key_of(report) == _key(checked):
            return record_result(state, match, checked, at, how="agreed")
        counter = report.counter
        if counter is not None and counter.by == by and _key_of(counter) == _key(checked):
            return []  # their score said again: the dispute stands as it was, unannounced
        match.report = _with_counter(report, by, checked, at)
        match.status = MatchStatus.DISPUTED
        match.disputed_by = by
        return [ReportDisputed(at=at, match=match.number, by=by)]
    if report is not None and match.status is MatchStatus.DISPUTED:
        # The first reporter says their score again, or another one.
        counter = report.counter
        if counter is not None and _key_of(counter) == _key(checked):
            return record_result(state, match, checked, at, how="agreed")
        if _key_of(report) == _key(checked):
            return []  # the same score again: nothing new for the directors
        # A new score is a new report: a button of the old one must not settle it.
        match.report_seq = max(match.report_seq, report.seq) + 1
        match.report = replace(_with_score(report, checked, at, counter), seq=match.report_seq)
        return [ReportDisputed(at=at, match=match.number, by=by)]
    if report is not None and _key_of(report) == _key(checked):
        # The same report again (typed twice, or as 3:1 after 3-1): it stands as it was,
        # its time-out unchanged, and the opponent is not asked a second time.
        return []
    seq = max(match.report_seq, report.seq if report is not None else 0) + 1
    match.report_seq = seq
    match.report = Report(
        by=by,
        white=checked.white,
        black=checked.black,
        at=at,
        seq=seq,
        tiebreaks=checked.tiebreaks,
        lot_winner=checked.lot_winner,
    )
    match.status = MatchStatus.PENDING
    opponent = match.opponent_of(by)
    assert opponent is not None
    return [
        ReportPending(
            at=at,
            match=match.number,
            by=by,
            opponent=opponent,
            white_score=checked.white,
            black_score=checked.black,
            accept_by=at + minutes(state.preset.reporting.accept_minutes),
        )
    ]


def report_game(
    state: TournamentState, number: int, by: PlayerId, kind: GameKind, cube: int, at: datetime
) -> list[Event]:
    """Add a game `by` won; when the match is over its score becomes a pending report."""
    match = _open_match(state, number, by)
    _check_started(state, match, at, by)
    if state.preset.game != "backgammon":
        raise Refused("games_only_backgammon")
    if match.report is not None:
        if match.report.by != by:
            # The opponent's score waits for this player: a game more is not the answer.
            raise Refused("report_waits_for_you", match=match.number)
        raise Refused("report_pending", match=match.number)
    played = game_by_game(state, match)
    played = add_game(
        state.preset.scoring, played, GameRecord(winner=_side(match, by), kind=kind, cube=cube)
    )
    attendance.at_the_table(state, by, at)
    match.games = played.games
    match.white_score, match.black_score = played.score
    match.status = MatchStatus.PLAYING
    if not played.is_over:
        return []
    white, black = played.score
    return report_score(state, number, by, FinalScore(white=white, black=black), at)


def game_by_game(state: TournamentState, match: Match) -> GameByGame:
    """Rebuild the game log of a match, lateness points as its floor."""
    assert match.white is not None and match.black is not None
    rules = state.preset.scoring
    return GameByGame(
        length=match.length,
        games=match.games,
        floor=(state.penalty_points(match, match.white), state.penalty_points(match, match.black)),
        points=tuple(game_value(rules, g.kind, g.cube) for g in match.games),
    )


def accept(state: TournamentState, number: int, by: PlayerId, at: datetime) -> list[Event]:
    """Accept the opponent's pending report."""
    match = _open_match(state, number, by)
    report = match.report
    if report is None or match.status is not MatchStatus.PENDING:
        raise Refused("nothing_to_accept", match=match.number)
    if report.by == by:
        raise Refused("own_report", match=match.number)
    attendance.at_the_table(state, by, at)
    return record_result(state, match, reported_score(report), at, how="accepted")


def dispute(
    state: TournamentState, number: int, by: PlayerId, at: datetime, reason: str = ""
) -> list[Event]:
    """Contest the opponent's report, saying why if the player did; a director must set
    the result."""
    match = _open_match(state, number, by)
    report = match.report
    if report is None:
        raise Refused("nothing_to_dispute", match=match.number)
    if report.by == by:
        raise Refused("own_report", match=match.number)
    attendance.at_the_table(state, by, at)
    match.status = MatchStatus.DISPUTED
    match.disputed_by = by
    return [ReportDisputed(at=at, match=match.number, by=by, reason=reason)]


def accept_on_timeout(state: TournamentState, match: Match, seq: int, at: datetime) -> list[Event]:
    """Let a pending report stand once nobody contested it in time (CLUB-REPORT)."""
    report = match.report
    if report is None or report.seq != seq or match.status is not MatchStatus.PENDING:
        return []
    return record_result(state, match, reported_score(report), at, how="timeout")


def set_result(
    state: TournamentState, number: int, score: FinalScore, at: datetime
) -> list[Event]:
    """Set or correct a result as a director (HGV-4.8); it is final at once."""
    match = state.matches.get(number)
    if match is None:
        raise Refused("no_such_match", match=number)
    if not match.is_ready:
        raise Refused("match_not_ready", match=number)
    checked = checked_score(state, match, score, floor=False)
    if match.is_final and match.stage is not Stage.GROUP:
        winner = match.white if checked.winner_side == "white" else match.black
        if winner != match.winner and progress.followed_up(state, match):
            raise Refused("next_round_started", match=number)
    return record_result(state, match, checked, at, how="director")


def record_result(
    state: TournamentState,
    match: Match,
    score: FinalScore,
    at: datetime,
    *,
    how: str,
    settle: bool = True,
) -> list[Event]:
    """Make a result final and let the tournament move on (unless told to wait)."""
    assert match.white is not None and match.black is not None
    match.white_score, match.black_score = score.white, score.black
    match.tiebreaks, match.lot_winner = score.tiebreaks, score.lot_winner
    match.winner = match.white if score.winner_side == "white" else match.black
    match.status = MatchStatus.FINISHED
    match.forfeited_by = NOBODY
    match.finished_at = at
    match.report = None
    match.disputed_by = None
    events: list[Event] = [
        MatchFinished(
            at=at,
            match=match.number,
            white=match.white,
            black=match.black,
            white_score=score.white,
            black_score=score.black,
            winner=match.winner,
            how=how,
        )
    ]
    if settle:
        events.extend(progress.settle(state, at))
    return events


def may_play(state: TournamentState, match: Match, at: datetime) -> bool:
    """Return whether a match is on at `at`: started, under way, or both players free.

    HGV-2.3.4: a match may be played early when both players are free: both present,
    and each has played their earlier open matches (see `_free`).
    """
    if not match.is_ready or match.is_final:
        return False
    return under_way(match, at) or _free(state, match, at)


def under_way(match: Match, at: datetime) -> bool:
    """Return whether a match is on by itself: its start has come, or it is being played."""
    assert match.start is not None
    return (
        match.start <= at
        or match.report is not None
        or bool(match.games)
        or match.status is not MatchStatus.SCHEDULED
    )


def reportable(state: TournamentState, player: PlayerId, at: datetime) -> list[Match]:
    """Return the player's matches a report may be for now (HGV-2.3.4, CLUB-REPORT).

    Open, not disputed, and on: started, under way, or both players present for an
    early start; and a disputed match whose score the player has not given yet.
    Earliest first.
    """
    return [
        m
        for m in state.open_matches_of(player)
        if (m.status is not MatchStatus.DISPUTED and may_play(state, m, at))
        or awaits_own_score(m, player)
    ]


def on_the_board(state: TournamentState, candidates: list[Match], at: datetime) -> list[Match]:
    """Return the candidates that can be on the board at `at` (HGV-2.3.4).

    A table starts once its players' earlier matches end, as the round call tells them:
    both players are present and each has played their earlier open matches (a score
    reported, even if not yet accepted or disputed).
    """
    return [m for m in candidates if _free(state, m, at)]


def _free(state: TournamentState, match: Match, at: datetime) -> bool:
    """Return whether both players are present and each has played their earlier open
    matches: a score reported, even if not yet accepted, or disputed (the director
    settles that one; the players are up from the table)."""
    for player in match.players:
        entry = state.entries.get(player)
        if entry is None or not entry.present_at(at):
            return False
        if _earlier_unplayed(state, match, player) is not None:
            return False
    return True


def _earlier_unplayed(state: TournamentState, match: Match, player: PlayerId) -> Match | None:
    """Return the player's first open match before `match` that is still to be played."""
    for earlier in state.open_matches_of(player):
        if earlier is match:
            return None
        if earlier.report is None and earlier.status is not MatchStatus.DISPUTED:
            return earlier
    return None


def not_yet(
    state: TournamentState, match: Match, at: datetime, by: PlayerId | None = None
) -> Refused:
    """Return why a match that is not on yet cannot be reported, in the words that fit:
    the opponent has not checked in, someone has an earlier match first, or it is
    simply later (HGV-2.3.4)."""
    assert match.start is not None
    found = {"match": match.number, "start": match.start}
    players = [p for p in (match.white, match.black) if p is not None]
    players.sort(key=lambda p: p == by)  # the opponent's reasons first
    for player in players:
        entry = state.entries.get(player)
        if player != by and (entry is None or not entry.present_at(at)):
            return Refused("match_not_started", **found)
    for player in players:
        earlier = _earlier_unplayed(state, match, player)
        if earlier is not None:
            code = "match_after_mine" if player == by else "match_after_theirs"
            return Refused(code, **found, earlier=earlier.number)
    return Refused("match_later", **found)


def _check_started(
    state: TournamentState, match: Match, at: datetime, by: PlayerId | None = None
) -> None:
    if not may_play(state, match, at):
        raise not_yet(state, match, at, by)


def _open_match(
    state: TournamentState, number: int, by: PlayerId, *, disputed: bool = False
) -> Match:
    match = state.matches.get(number)
    if match is None:
        raise Refused("no_such_match", match=number)
    if not match.involves(by):
        raise Refused("not_your_match", match=number)
    if not match.is_ready:
        raise Refused("match_not_ready", match=number)
    if match.is_final:
        raise Refused("match_already_final", match=number)
    if match.status is MatchStatus.DISPUTED and not disputed:
        raise Refused("match_disputed", match=number)
    return match


def checked_score(
    state: TournamentState, match: Match, score: FinalScore, *, floor: bool
) -> FinalScore:
    """Return the score checked against the match's length and game (HGV-5.3)."""
    assert match.white is not None and match.black is not None
    board = (
        (state.penalty_points(match, match.white), state.penalty_points(match, match.black))
        if floor
        else (0, 0)
    )
    return check_final_score(
        state.preset.scoring,
        state.preset.game,
        match.length,
        score,
        knockout=match.stage is not Stage.GROUP,
        floor=board,
    )


def _side(match: Match, player: PlayerId) -> Side:
    return "white" if player == match.white else "black"


def _key_of(report: Report) -> tuple[object, ...]:
    return (report.white, report.black, report.tiebreaks, report.lot_winner)


def _with_counter(report: Report, by: PlayerId, score: FinalScore, at: datetime) -> Report:
    """Return `report` with the opponent's own, different score beside it."""
    counter = Report(
        by=by,
        white=score.white,
        black=score.black,
        at=at,
        seq=report.seq,
        tiebreaks=score.tiebreaks,
        lot_winner=score.lot_winner,
    )
    return replace(report, counter=counter)


def _with_score(report: Report, score: FinalScore, at: datetime, counter: Report | None) -> Report:
    """Return the reporter's report with a new score, the opponent's still beside it."""
    return replace(
        report,
        white=score.white,
        black=score.black,
        at=at,
        tiebreaks=score.tiebreaks,
        lot_winner=score.lot_winner,
        counter=counter,
    )


def awaits_opponent(match: Match, player: PlayerId) -> bool:
    """Say whether `player`'s own report of `match` only waits for the opponent to answer
    (CLUB-REPORT): a new report of theirs means another match, unless it names this one."""
    report = match.report
    return report is not None and report.by == player and match.status is not MatchStatus.DISPUTED


def awaits_own_score(match: Match, player: PlayerId) -> bool:
    """Say whether `player` disputed `match`'s report and has not given their score yet:
    their next `/report` is that score (CLUB-REPORT)."""
    report = match.report
    return (
        match.status is MatchStatus.DISPUTED
        and report is not None
        and report.by != player
        and match.involves(player)
        and (report.counter is None or report.counter.by != player)
    )


def _key(score: FinalScore) -> tuple[object, ...]:
    return (score.white, score.black, score.tiebreaks, score.lot_winner)


def reported_score(report: Report) -> FinalScore:
    """Return the final score a report gives, white first."""
    return FinalScore(
        white=report.white,
        black=report.black,
        tiebreaks=report.tiebreaks,
        lot_winner=report.lot_winner,
    )
