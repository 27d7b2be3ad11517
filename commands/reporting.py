"""What players do at the table: report a match or a game, accept or dispute a report."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

from commands import history, views
from commands.params import Args, lot_typed, scores_typed
from commands.replies import Button, Hint, Msg, Reply, When, announced, msg, say
from commands.session import Session
from tournament import reports
from tournament.model import MatchStatus, PlayerId, Refused
from tournament.preset import Game
from tournament.scoring import (
    TIEBREAK_CODES,
    TIEBREAK_NEEDED,
    FinalScore,
    GameKind,
    ScoreError,
    example_score,
    lot_word,
    named_first,
)
from tournament.state import Match, Report, TournamentState

GAME_KINDS: dict[str, GameKind] = {
    "single": "single",
    "gammon": "gammon",
    "backgammon": "backgammon",
}


async def report(s: Session, a: Args) -> Reply:
    """Report your match, your score first; or one game: /report game gammon."""
    player = await s.me()
    state = await s.tournament()
    found = a.scores("score")
    again = "report " + " ".join(f"{x}-{y}" for x, y in found) + lot_typed(a)

    def scored(m: Match) -> FinalScore:
        mine, theirs = found[0]
        return named_first(
            mine,
            theirs,
            first_is_white=m.white == player.id,
            phases=found[1:],
            lot=lot_word(a.choice("lot")),
        )

    def fits(m: Match) -> bool:
        try:
            reports.checked_score(state, m, scored(m), floor=True)
        except ScoreError:
            return False
        return True

    def same_as_sent(m: Match) -> bool:
        sent, typed = m.report, scored(m)
        return sent is not None and (sent.white, sent.black) == (typed.white, typed.black)

    match = await pick_match(s, state, a, again=again, fits=fits, resent=same_as_sent)
    if isinstance(match, Reply):
        return match
    score = scored(match)
    # The reporter's own report still awaiting the opponent: a new score replaces it.
    earlier = match.report if match.status is MatchStatus.PENDING else None
    earlier = earlier if earlier is not None and earlier.by == player.id else None
    try:
        events = reports.report_score(state, match.number, player.id, score, s.now)
    except ScoreError as error:
        # The hint shows this match's own length: a final to 7 is not reported 3-1.
        example = report_usage(match, state.preset.game)
        if error.code in TIEBREAK_CODES:
            phase = int(error.params["phase"])
            if error.code == "draughts_tiebreak_total_wrong":
                total = int(error.params["total"])
                then = lot_typed(a)
                last = views.last_tiebreak(state.preset, match, phase)
                converted = views.phase_in_points(
                    found, phase, total, "/report", then=then, last=last
                )
                if converted is not None:
                    raise converted from None
            example = views.with_tiebreak("/report", found[:phase])
            waiting = match.report if match.status is MatchStatus.PENDING else None
            if error.code == TIEBREAK_NEEDED and waiting is not None and waiting.by != player.id:
                # A level score against the opponent's report: the two disagree, and
                # accepting theirs is the other way to answer.
                raise await _level_against(s, match, waiting, player.id, error, example) from None
        elif error.code == "lot_needed":
            # Every phase typed was level (no lot given): the same line, with the lot won.
            example = f"/{again} lot:won"
        elif error.code == "below_floor" and state.preset.game == "backgammon":
            # A score at least the lateness points already on the board, yours first.
            floor = (int(error.params["white"]), int(error.params["black"]))
            if match.white != player.id:
                floor = (floor[1], floor[0])
            mine, theirs = found[0]
            example = f"/report {max(mine, floor[0])}-{max(theirs, floor[1])}"
        elif error.code == "draughts_total_wrong":
            # The tiebreak and lot typed after it are kept in the line to send.
            then = scores_typed(found[1:]) + lot_typed(a)
            converted = views.in_points(found[0], match.length, "/report", then=then)
            if converted is not None:
                raise converted from None
        raise ScoreError(error.code, **error.params, example=example) from None
    s.events.extend(events)
    # The same score sent again changes nothing, and is said so, with the time it stands
    # at (its minutes run from the first sending): nor is it logged again.
    resent = earlier is not None and match.report is not None and match.report.seq == earlier.seq
    if not resent:
        s.log(
            "report",
            match=match.number,
            white=score.white,
            black=score.black,
            **history.phases(score.tiebreaks, score.lot_winner),
        )
    names = await s.names(set(match.players))
    if match.is_final:
        return announced(Reply((views.match_line(match, names, state.preset.game),)))
    if match.status is MatchStatus.DISPUTED:
        return say("report.conflict", match=match.number)
    until = match.report.at if match.report else s.now
    # Said as the reporter typed it, their side first (issue 20): Alice's /report 3-1 is
    # "Alice 3-1 Bob", also when Alice plays black.
    first, second = match.white, match.black
    mine, theirs = score.white, score.black
    phases = score.tiebreaks
    if player.id != match.white:
        first, second, mine, theirs = second, first, theirs, mine
        phases = tuple((b, w) for w, b in phases)
    opponent = match.opponent_of(player.id)
    # A player the director entered cannot accept or dispute: say who settles it instead.
    unanswerable = opponent is not None and not await s.uow.players.accounts(opponent)
    key = "report.already" if resent else "report.recorded"
    recorded = msg(
        f"{key}_no_account" if unanswerable else key,
        match=match.number,
        white=views.name(names, first),
        black=views.name(names, second),
        ws=mine,
        bs=theirs,
        score=views.score(mine, theirs, phases, score.lot_winner),
        opponent=views.name(names, opponent),
        minutes=state.preset.reporting.accept_minutes,
        since=When(until),
        stands=When(until + timedelta(minutes=state.preset.reporting.accept_minutes)),
    )
    if earlier is None or resent:
        return Reply((recorded,))
    return Reply((recorded, _replaces(earlier, reporter_is_white=player.id == match.white)))


async def _level_against(
    s: Session, match: Match, waiting: Report, me: PlayerId, error: ScoreError, example: str
) -> Refused:
    """Say a level score needs its tiebreak, and that the opponent's report waits."""
    names = await s.names(set(match.players))
    mine, theirs = waiting.white, waiting.black
    phases = waiting.tiebreaks
    if me != match.white:
        mine, theirs = theirs, mine
        phases = tuple((b, w) for w, b in phases)
    return Refused(
        "level_against_report",
        match=match.number,
        game=str(error.params["game"]),
        example=Hint(example),
        opponent=views.name(names, waiting.by),
        score=views.score(mine, theirs, phases, waiting.lot_winner),
    )


def _replaces(earlier: Report, *, reporter_is_white: bool) -> Msg:
    """Say which of the reporter's own scores a new report replaces, theirs first."""
    mine, theirs = earlier.white, earlier.black
    phases = earlier.tiebreaks
    if not reporter_is_white:
        mine, theirs = theirs, mine
        phases = tuple((b, w) for w, b in phases)
    return msg("report.replaces", score=views.score(mine, theirs, phases, earlier.lot_winner))


def report_usage(match: Match, game: Game) -> str:
    """Return how to report `match`: a winning score of its own length, yours first."""
    mine, theirs = example_score(game, match.length)
    return f"/report {mine}-{theirs}"


# A refused game's hint: the game to send instead, and the line that offers it.
GAME_HINTS = {
    "cube_pointless": ("/report game {kind}", "score.game_without_cube"),
    "cube_in_crawford_game": ("/report game {kind}", "score.game_without_cube"),
    "cube_not_used": ("/report game {kind}", "score.game_without_cube"),
    "cube_not_power_of_two": ("/report game {kind} cube:2", "score.game_usage"),
    "game_kind_not_counted": ("/report game", "score.game_usage"),
}


async def report_game(s: Session, a: Args) -> Reply:
    """Report one game of your backgammon match: /report game gammon cube:2."""
    player = await s.me()
    state = await s.tournament()
    kind = GAME_KINDS[a.choice("kind") or "single"]
    cube = a.integer("cube") or 1
    if cube < 1:
        raise Refused("bad_cube", text=str(cube))
    again = f"report game {kind} cube:{cube}"
    match = await pick_match(s, state, a, again=again)
    if isinstance(match, Reply):
        return match
    try:
        s.events.extend(reports.report_game(state, match.number, player.id, kind, cube, s.now))
    except ScoreError as error:
        # What to send instead is a game, not a match's score (/report 3-1).
        example, usage = GAME_HINTS.get(error.code, (None, ""))
        if example is not None:
            error.params |= {"example": example.format(kind=kind), "_usage": usage}
        raise
    s.log("report_game", match=match.number, kind=kind, cube=cube)
    names = await s.names(set(match.players))
    if match.status is MatchStatus.PLAYING:
        return say(
            "game.recorded",
            match=match.number,
            white=views.name(names, match.white),
            black=views.name(names, match.black),
            ws=match.white_score,
            bs=match.black_score,
        )
    return announced(Reply((views.match_line(match, names, state.preset.game),)))


async def pick_match(
    s: Session,
    state: TournamentState,
    a: Args,
    *,
    again: str,
    fits: Callable[[Match], bool] | None = None,
    resent: Callable[[Match], bool] | None = None,
) -> Match | Reply:
    """Return the match a player means, or buttons to choose when it is ambiguous.

    `again` is the command without its match, for the buttons to repeat with one.
    Among several, a match whose own report only waits for the opponent is not what a
    new report means, nor one the typed score cannot end (`fits`): no button offers a
    command that would be refused. A report for such a match names it (`match:N`).
    Unless it is the score that report gave (`resent`): sent again, or the same score in
    the next match? The player is asked, with that match among the buttons. A match on
    only for an early start (HGV-2.3.4) is not meant while that report waits.
    """
    player = await s.me()
    number = a.match("match")
    if number is not None:
        match = state.matches.get(number)
        if match is None or not match.involves(player.id):
            raise Refused("not_your_match", match=number)
        return match
    opponent = a.player("vs")

    def wanted(m: Match) -> bool:
        return opponent is None or m.involves(opponent.id)

    # HGV-2.3.4: the matches that are on (started, or both players free for an early
    # start); a match still ahead against someone absent is never guessed.
    started = [m for m in reports.reportable(state, player.id, s.now) if wanted(m)]
    if not started:
        # Nothing else on: a report is the player's score said again, or corrected, for
        # their disputed match ("it was 5-3 after all"): equal to the other's, it is final.
        disputed = [
            m
            for m in state.open_matches_of(player.id)
            if m.status is MatchStatus.DISPUTED and wanted(m)
        ]
        if len(disputed) == 1:
            return disputed[0]
        ahead = [
            m
            for m in state.open_matches_of(player.id)
            if m.status is not MatchStatus.DISPUTED and wanted(m)
        ]
        if ahead and ahead[0].start is not None:
            raise reports.not_yet(state, ahead[0], s.now, player.id)
        raise Refused("no_open_match")

    def waiting(m: Match) -> bool:
        return reports.awaits_opponent(m, player.id) or reports.awaits_own_score(m, player.id)

    if any(waiting(m) for m in started):
        # The player's own report still waits for the opponent, or their own score of a
        # match they disputed is still to come: a match on only because both are free for
        # an early start cannot have been played since; a report is that one's.
        started = [m for m in started if waiting(m) or reports.under_way(m, s.now)]
    lines: tuple[Msg, ...] = ()
    if len(started) > 1:
        narrowed = _narrowed(state, started, player.id, fits, s.now)
        waits = [m for m in started if m not in narrowed and reports.awaits_opponent(m, player.id)]
        sent = next((m for m in waits if resent is not None and resent(m)), None)
        if sent is not None:
            lines = (await _sent_already(s, sent, player.id),)
        started = [sent, *narrowed] if sent is not None else narrowed
    if len(started) == 1:
        return started[0]
    names = await s.names({q for m in started for q in m.players})
    buttons = tuple(
        Button(
            msg(
                "button.match_against",
                opponent=views.name(names, m.opponent_of(player.id)),
                match=m.number,
            ),
            f"/{again} match:{m.number}",
        )
        for m in started
    )
    # Their own line with a number, as typed again: not a score of our choosing.
    example = Hint(f"/{again} match:{started[0].number}")
    return Reply((*lines, msg("pick.match", example=example)), buttons)


async def _sent_already(s: Session, sent: Match, player: PlayerId) -> Msg:
    """Say that the score typed is the one the player's report of `sent` gave already."""
    names = await s.names(set(sent.players))
    opponent = views.name(names, sent.opponent_of(player))
    return msg("pick.match_resent", match=sent.number, opponent=opponent)


def _narrowed(
    state: TournamentState,
    started: list[Match],
    player: PlayerId,
    fits: Callable[[Match], bool] | None,
    now: datetime,
) -> list[Match]:
    """Return the candidates a new report can mean; the first alone when the score cannot
    end it (the report is then refused for it, with its reason), also when a later one
    could; the one that can be on the board when the others wait for it."""
    narrowed = [m for m in started if not reports.awaits_opponent(m, player)] or started
    if fits is not None:
        fitting = [m for m in narrowed if fits(m)]
        if not fitting or fitting[0] is not narrowed[0]:
            # The score cannot end the match being played (lateness points already on
            # it, say) but could end a later one: that is a mistake, not a report of a
            # match still to come. Refused for the first, with the reason.
            return narrowed[:1]
        narrowed = fitting
    if len(narrowed) > 1:
        # The round call told each player to finish an earlier match first: a report
        # means the one match that can be on the board, when only one can.
        on_board = reports.on_the_board(state, narrowed, now)
        if len(on_board) == 1:
            return on_board
    return narrowed


async def accept(s: Session, a: Args) -> Reply:
    """Accept the result your opponent reported (CLUB-REPORT)."""
    return await _answer(s, a, agree=True)


async def dispute(s: Session, a: Args) -> Reply:
    """Contest the result your opponent reported; a director decides."""
    return await _answer(s, a, agree=False)


async def _answer(s: Session, a: Args, *, agree: bool) -> Reply:
    player = await s.me()
    state = await s.tournament()
    number = a.match("match")
    if number is None:
        waiting = [
            m
            for m in state.open_matches_of(player.id)
            if m.report is not None
            and m.report.by != player.id
            and m.status is MatchStatus.PENDING
        ]
        disputed = [
            m for m in state.open_matches_of(player.id) if m.status is MatchStatus.DISPUTED
        ]
        if not waiting and disputed and not agree:
            # /dispute again: say how it stands (a director decides), not "no report";
            # a reason given now is the directors' to read.
            standing = disputed[0]
            names = await s.names(set(standing.players))
            line = views.match_line(standing, names, state.preset.game)
            return Reply((line, *_reason_logged(s, a, standing.number)))
        if not waiting:
            raise Refused("nothing_to_accept" if agree else "nothing_to_dispute", match="")
        number = waiting[0].number
    answered = a.integer("report")
    match = state.matches.get(number)
    if answered is not None and match is not None and match.involves(player.id):
        current = match.report
        if current is None or current.seq != answered or match.status is not MatchStatus.PENDING:
            # A button of an older report: say how the match stands now, change nothing.
            names = await s.names(set(match.players))
            return Reply(
                (
                    msg("refused.report_changed", match=number),
                    views.match_line(match, names, state.preset.game),
                )
            )
    reason = (a.text("reason") or "").strip()
    if agree:
        s.events.extend(reports.accept(state, number, player.id, s.now))
    else:
        s.events.extend(reports.dispute(state, number, player.id, s.now, reason))
    match = state.matches[number]
    names = await s.names(set(match.players))
    if agree:
        s.log("accept", match=number)
        return announced(Reply((views.match_line(match, names, state.preset.game),)))
    s.log("dispute", match=number, **({"reason": reason} if reason else {}))
    # The club's announcement in the chat it hears it in; its own words elsewhere; the
    # reason is the event's (commands/notices.py).
    return announced(
        Reply((views.disputed_line(match, names, by=player.id, game=state.preset.game),))
    )


def _reason_logged(s: Session, a: Args, number: int) -> tuple[Msg, ...]:
    """Log a reason given after the dispute of match `number` (/dispute reason:"it was
    2-3"), for the directors' /log, and return its line; nothing when none is given."""
    reason = (a.text("reason") or "").strip()
    if not reason:
        return ()
    s.log("dispute", match=number, reason=reason)
    return (msg("report.dispute_reason", reason=reason),)
