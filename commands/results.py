"""Results a director enters or corrects, reopened matches and lots drawn."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from datetime import timedelta

from commands import announce, history, views
from commands.params import Args, as_typed, lot_typed, scores_typed
from commands.picking import numbered
from commands.replies import Button, Hint, Msg, Name, Reply, Table, announced, msg
from commands.session import Session
from tournament import (
    corrections,
    progress,
    reports,
)
from tournament.club import Player
from tournament.model import EntryStatus, MatchStatus, Refused
from tournament.scoring import (
    TIEBREAK_CODES,
    FinalScore,
    ScoreError,
    Side,
    example_score,
    lot_word,
    named_first,
)
from tournament.state import Match, Report, TournamentState


async def result(s: Session, a: Args) -> Reply:
    """Set or correct a result at any time: /result alice 3-1 bob, /result 12 3-1, /result 12 void.

    A result for a match still open is final at once (HGV-4.8). A change to a final or
    void match is a correction: everything that follows is derived again (standings,
    pairings not yet played, placements, ranking points) and announced once; a played
    pairing that would change is listed first, for the director to confirm.
    """
    state = await s.tournament()
    match, white_first = await _meant_match(s, state, a)
    change = _change(state, match, a, white_first=white_first)
    try:
        return await _set_result(s, state, match, change, a)
    except ScoreError as error:
        # A director is shown /result for this match, white's score first, not /report.
        won, lost = example_score(state.preset.game, match.length)
        example = f"/result {match.number} {won}-{lost}"
        code = error.code
        if error.code in TIEBREAK_CODES and isinstance(change, FinalScore):
            phase, command = int(error.params["phase"]), f"/result {match.number}"
            if error.code == "draughts_tiebreak_total_wrong":
                total = int(error.params["total"])
                phases = _white_first(change)
                converted = views.phase_in_points(
                    phases,
                    phase,
                    total,
                    command,
                    "score.usage_result",
                    lot_typed(a),
                    last=views.last_tiebreak(state.preset, match, phase),
                )
                if converted is not None:
                    raise converted from None
            example = views.with_tiebreak(command, _white_first(change)[:phase])
        elif error.code == "draughts_total_wrong" and isinstance(change, FinalScore):
            main, *phases = _white_first(change)
            command, then, usage = f"/result {match.number}", "", "score.usage_result"
            first, second = a.player("player"), a.player("opponent")
            if first is not None and second is not None:
                # Said as typed, the first named player's score first: "jan 2-0 łukasz"
                # was answered "0-2 counts games", white's (łukasz's) first.
                if not white_first:
                    main, phases = (main[1], main[0]), [(y, x) for x, y in phases]
                command += f" {as_typed(first.name)}"
                then, usage = f" {as_typed(second.name)}", "score.usage_result_named"
            # The tiebreak and lot typed after the score are kept in the line to send.
            then = scores_typed(phases) + then + lot_typed(a)
            converted = views.in_points(main, match.length, command, usage, then=then)
            if converted is not None:
                raise converted from None
        elif error.code == "lot_needed" and isinstance(change, FinalScore):
            # A director names the lot by colour (lot:white), not as won or lost.
            level = " ".join(f"{x}-{y}" for x, y in _white_first(change))
            example, code = f"/result {match.number} {level} lot:white", "lot_needed_result"
        raise ScoreError(
            code,
            **{k: v for k, v in error.params.items() if k != "example"},
            example=example,
            _usage="score.usage_result",
        ) from None


async def _not_their_match(
    s: Session, state: TournamentState, match: Match, named: list[Player]
) -> Refused:
    """Refuse a /result whose number and names disagree; a side still undecided is the
    match that sends it ("winner of 8"), and a named player still in that match is told
    to have its result set first."""
    by_key = views.feeders(state)
    names = await s.names(set(match.players))
    white = views.fed_side(match, match.white, match.white_from, by_key, names)
    black = views.fed_side(match, match.black, match.black_from, by_key, names)
    for player in named:
        for source in (match.white_from, match.black_from):
            feeder = by_key.get(source) if source is not None else None
            if feeder is not None and not feeder.is_final and feeder.involves(player.id):
                return Refused(
                    "result_feeder_open",
                    match=match.number,
                    white=white,
                    black=black,
                    player=Name(player.name),
                    feeder=feeder.number,
                )
    return Refused(
        "result_not_their_match",
        match=match.number,
        names=Name(" / ".join(p.name for p in named)),
        white=white,
        black=black,
    )


async def _meant_match(s: Session, state: TournamentState, a: Args) -> tuple[Match, bool]:
    """Return the match a /result names (by number, or by its two players) and whether
    the first score typed is white's."""
    first, second = a.player("player"), a.player("opponent")
    number = a.match("match")
    if number is not None:
        match = state.matches.get(number)
        if match is None:
            raise await _no_such_match(s, state, number, a)
        named = [p for p in (first, second) if p is not None]
        if not all(match.involves(p.id) for p in named):
            raise await _not_their_match(s, state, match, named)
        # `/result 16 3-1` gives white's score first, `/result 16 rocio 7-5 alex` rocio's,
        # `/result 16 7-5 alex` alex's opponent's.
        if first is not None:
            white_first = match.white == first.id
        else:
            white_first = second is None or match.black == second.id
    elif number is None and first is not None and second is not None:
        candidates = [m for m in state.matches_of(first.id) if m.involves(second.id)]
        open_ones = [m for m in candidates if not m.is_final]
        if not candidates:
            a_id, b_id = first.id, second.id
            other = await _elsewhere(
                s, state, lambda t: any(m.involves(b_id) for m in t.matches_of(a_id))
            )
            if other is not None:
                raise Refused(
                    "no_match_between_other",
                    a=first.name,
                    b=second.name,
                    tournament=state.name,
                    command=f'{a.usage} tournament:"{other}"',
                )
            raise Refused("no_match_between", a=first.name, b=second.name)
        # The next match to play between them, else the last one played (a correction).
        match = open_ones[0] if open_ones else candidates[-1]
        white_first = match.white == first.id
    else:
        raise Refused("bad_result_args", forms=_result_forms(state))
    return match, white_first


def _change(
    state: TournamentState, match: Match, a: Args, *, white_first: bool
) -> corrections.Change:
    """Return the result typed: void, or the scores with the first named player's first."""
    found = a.scores("score")
    if a.choice("void"):
        if found:
            raise Refused("bad_result_args", forms=_result_forms(state, match))
        return "void"
    if found:
        main, *phases = found
        return named_first(
            main[0],
            main[1],
            first_is_white=white_first,
            phases=phases,
            lot=lot_word(a.choice("lot")),
        )
    raise Refused("bad_result_args", forms=_result_forms(state, match))


async def _set_result(
    s: Session, state: TournamentState, match: Match, change: corrections.Change, a: Args
) -> Reply:
    reason = (a.text("reason") or "").strip()
    again = f"/result {match.number} " + (
        " ".join(f"{x}-{y}" for x, y in _white_first(change))
        if isinstance(change, FinalScore)
        else "void"
    )
    again = s.again(again, state)
    if not match.is_final and not isinstance(change, str):
        # An open match (disputed, reported, under way) gets its result: no correction,
        # unless it undoes played knockout matches (a group match reopened after them).
        conflicts = corrections.open_conflicts(state, match.number, change, s.now)
        version = corrections.asked_version(
            state, match, corrections.Impact(conflicts=tuple(conflicts))
        )
        stale = _stale(a, version)
        confirmed = a.choice("confirm") is not None and not stale
        undone = () if confirmed else conflicts
        if undone:
            command = f"{again} confirm" + (f' reason:"{reason}"' if reason else "")
            ask = msg(
                "correct.confirm",
                match=match.number,
                matches=", ".join(map(str, undone)),
                command=Hint(command),
            )
            button = Button(msg("button.confirm_correction"), f"{command} seen:{version}")
            said = (msg("correct.stale", match=match.number), ask) if stale else (ask,)
            return Reply(said, (button,), private=True)
        reversed_report = _reversed_report(match, change)
        events = corrections.set_result(
            state, match.number, change, s.now, confirmed=confirmed, reason=reason
        )
        s.events.extend(events)
        s.log(
            "result",
            match=match.number,
            white=change.white,
            black=change.black,
            reason=reason,
            **history.phases(change.tiebreaks, change.lot_winner),
        )
        names = await s.names(set(match.players))
        # What the report claimed is for the director: the club hears the result.
        aside = (
            () if reversed_report is None else (_reverses(state, match, reversed_report, names),)
        )
        return announced(Reply((views.match_line(match, names, state.preset.game),)), *aside)
    return await _correct(s, state, match, change, a, again)


def _reversed_report(match: Match, change: FinalScore) -> Report | None:
    """Return the report awaiting the opponent that `change` gives to the other player.

    `/result 19 0-7` is white's score first; a director copying the reporter's own
    "7-0" reverses the match without meaning to. A disputed match is left out: there
    the director decides between two claims, and one of them loses.
    """
    report = match.report
    if report is None or report.counter is not None or match.status is not MatchStatus.PENDING:
        return None
    claimed = _claimed_side(report)
    return report if claimed is not None and claimed != change.winner_side else None


def _claimed_side(report: Report) -> Side | None:
    """Return the side a report gives the match to."""
    try:
        return reports.reported_score(report).winner_side
    except ScoreError:
        return None


def _reverses(state: TournamentState, match: Match, report: Report, names: views.Names) -> Msg:
    """Say whose win the report claimed, and the /result that keeps it."""
    claimed = match.white if _claimed_side(report) == "white" else match.black
    return msg(
        "result.reverses_report",
        reporter=views.name(names, report.by),
        white=views.name(names, match.white),
        black=views.name(names, match.black),
        score=views.score(report.white, report.black, report.tiebreaks, report.lot_winner),
        claimed=views.name(names, claimed),
        winner=views.name(names, match.winner),
        command=Hint(views.result_command(match, report, game=state.preset.game)),
    )


def _result_forms(state: TournamentState, match: Match | None = None) -> str:
    """Return the ways to type a result, with a score that ends this match (or a group
    match): never the line that failed."""
    length = match.length if match is not None else state.preset.groups.match_length
    won, lost = example_score(state.preset.game, length)
    number = match.number if match is not None else 12
    forms = [f"/result alice {won}-{lost} bob", f"/result {number} {won}-{lost}"]
    return " · ".join([*forms, f"/result {number} void"])


def _white_first(score: FinalScore) -> list[tuple[int, int]]:
    return [(score.white, score.black), *score.tiebreaks]


def _stale(a: Args, version: str) -> bool:
    """Say whether a confirm button was offered for another state of the match than the
    one it meets now (typed without `seen:`, a confirm acts on what is there)."""
    seen = a.text("seen")
    return a.choice("confirm") is not None and seen is not None and seen.strip() != version


async def reopen(s: Session, a: Args) -> Reply:
    """Reopen a match at any time: it is played again, and what followed from it waits."""
    state, number = await numbered(s, a)
    match = state.matches.get(number)
    if match is None:
        raise await _no_such_match(s, state, number, a)
    return await _correct(s, state, match, "reopen", a, s.again(f"/reopen {number}", state))


async def _no_such_match(s: Session, state: TournamentState, number: int, a: Args) -> Refused:
    """Refuse a match number the tournament lacks; when the command named no tournament
    and a recent other one has that match (last night's, once next month's entries are
    what a bare command means), say how to name it."""
    other = await _elsewhere(s, state, lambda t: number in t.matches)
    if other is not None:
        return Refused(
            "no_such_match_other",
            match=number,
            tournament=state.name,
            other=other,
            command=f'{a.usage} tournament:"{other}"',
        )
    if not state.matches:
        return Refused("redraw_not_drawn", tournament=state.name)  # not /schedule: /draw
    return Refused("no_such_match", match=number)


async def _elsewhere(
    s: Session, state: TournamentState, has: Callable[[TournamentState], bool]
) -> str | None:
    """Return the name of this week's other tournament that `has` what the command
    wanted, when the command named none."""
    if s.chosen:
        return None
    listed = await s.uow.tournaments.list(s.club.id)
    others = [
        t.id
        for t in reversed(listed)
        if t.id != state.id
        and t.live
        and s.now - timedelta(days=7) <= t.start <= s.now + timedelta(days=1)  # this week
    ]
    for tid in others[:3]:
        other = await s.uow.tournaments.get(tid)
        if has(other):
            return other.name
    return None


async def _correct(
    s: Session,
    state: TournamentState,
    match: Match,
    change: corrections.Change,
    a: Args,
    again: str,
) -> Reply:
    """Apply a correction, or ask first when it would undo something: played pairings
    that would change, or a finished tournament's placements and ranking points."""
    reason = (a.text("reason") or "").strip()
    try:
        undone = corrections.impact(state, match.number, change, s.now)
    except Refused as refusal:
        raise _as_it_stands(refusal, match) from None
    conflicts = undone.conflicts
    version = corrections.asked_version(state, match, undone)
    stale = _stale(a, version)
    if undone.destructive and (stale or not a.choice("confirm")):
        command = f"{again} confirm" + (f' reason:"{reason}"' if reason else "")
        asks: list[Msg | Table] = []
        if stale:
            asks.append(msg("correct.stale", match=match.number))
        if undone.unfinishes:
            champion = undone.champion
            names = await s.names(set() if champion is None else {champion})
            asks.append(
                msg(
                    "correct.undoes_finish",
                    match=match.number,
                    tournament=Name(state.name),
                    champion=views.name(names, champion),
                )
            )
        if conflicts:
            asks.append(
                msg(
                    "correct.confirm",
                    match=match.number,
                    matches=", ".join(map(str, conflicts)),
                    command=Hint(command),
                )
            )
        else:
            asks.append(msg("correct.go_ahead", command=Hint(command)))
        button = Button(msg("button.confirm_correction"), f"{command} seen:{version}")
        return Reply(tuple(asks), (button,), private=True)
    events = corrections.correct(state, match.number, change, s.now, reason=reason, confirmed=True)
    s.events.extend(events)
    kind = change if isinstance(change, str) else "score"
    s.log(
        "correct",
        match=match.number,
        change=kind,
        white=match.white_score,
        black=match.black_score,
        reset=list(conflicts),
        reason=reason,
        **history.phases(match.tiebreaks, match.lot_winner),
    )
    names = await s.names(set(state.entries))
    said = announce.notices(state, events, names)
    return announced(
        said[0].reply if said else Reply((views.match_line(match, names, state.preset.game),)),
        *_still_no_show(state, match, change, names),
    )


def _as_it_stands(refusal: Refused, match: Match) -> Refused:
    """Return a refusal of a correction that changes nothing with the score as a result
    shows it, tiebreak phases and lot too (WAR-V): "2-2" alone hid what stands."""
    if refusal.code != "result_unchanged":
        return refusal
    stands = views.score(match.white_score, match.black_score, match.tiebreaks, match.lot_winner)
    return Refused(
        "result_unchanged", match=match.number, score=stands, example=refusal.params["example"]
    )


def _still_no_show(
    state: TournamentState, match: Match, change: corrections.Change, names: views.Names
) -> tuple[Msg, ...]:
    """Tell the director that a player given a played score is still a no-show: the score
    alone does not bring them back (CLUB-NO-SHOW); /reinstate does."""
    if not isinstance(change, FinalScore):
        return ()
    return tuple(
        msg(
            "correct.still_no_show",
            player=views.name(names, player),
            command=Hint(f'/reinstate {as_typed(names[player])} reason:"..."'),
        )
        for player in match.players
        if (entry := state.entries.get(player)) is not None and entry.status is EntryStatus.NO_SHOW
    )


async def lot(s: Session, a: Args) -> Reply:
    """Settle a tie extra games have not broken by a recorded lot (NAV-TIE): /lot 2."""
    state = await s.tournament()
    group = a.text("group")
    if group is None:
        tied = progress.open_ties(state)
        if len(tied) != 1:
            raise Refused("no_group_tie")
        group = tied[0]
    group = group.strip()
    if state.groups and group not in {g.name for g in state.groups}:
        # "/lot łukasz": a group is named by its number, as the tables show it.
        raise Refused("no_such_group", group=group, count=len(state.groups))
    seed = a.integer("seed")
    seed = secrets.randbelow(10**6) if seed is None else seed
    events = progress.settle_by_lot(state, group, seed, s.now)
    s.events.extend(events)
    s.log("lot", group=group, seed=seed)
    names = await s.names(set(state.entries))
    said = announce.notices(state, events[:1], names)
    return announced(said[0].reply)
