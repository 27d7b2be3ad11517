"""What each event says: one function per event, chosen by the event's type.

`commands.announce` decides when and where (a correction's message gathers what it
caused, live tables come last); this module only says one event's messages.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from commands import pictures, views
from commands.params import as_typed
from commands.replies import (
    Button,
    Hint,
    Link,
    Mention,
    Msg,
    Name,
    Param,
    Reply,
    Table,
    When,
    msg,
)
from tournament import events as ev
from tournament import progress
from tournament.calendar import Listed
from tournament.model import MatchStatus, PlayerId, Stage
from tournament.state import Match, TournamentState

Names = Mapping[PlayerId, str]


@dataclass
class Notice:
    """A message caused by a command or an effect: to the club's chats or to a player."""

    reply: Reply
    player: PlayerId | None = None  # None: every chat of the club
    coalesce: str | None = None  # a newer notice with this key replaces the older one
    expires_at: datetime | None = None  # not worth sending after this
    # Said because of the command's own act (not an effect that fell due as it ran): in
    # the chat the command came from, it can be the command's reply (`Reply.announced`).
    answers: bool = False


def _namer(names: Names) -> Callable[[PlayerId | None], Param]:
    """Return the function that shows a player's name in a message."""

    def name(player: PlayerId | None) -> Param:
        return views.name(names, player)

    return name


def _on_confirm_reminder(
    state: TournamentState, event: ev.ConfirmReminder, names: Names, link: str | None
) -> list[Notice]:
    players = event.players
    reply = Reply(
        (
            msg(
                "remind.confirm",
                tournament=state.name,
                start=When(state.start, "datetime"),
            ),
        ),
        (Button(msg("button.confirm"), "/confirm"),),
    )
    return [Notice(reply, player=p, expires_at=state.start) for p in players]


def _on_checkin_open(
    state: TournamentState, event: ev.CheckinOpen, names: Names, link: str | None
) -> list[Notice]:
    players = event.players
    dm = Reply(
        (msg("remind.checkin", tournament=state.name, start=When(state.start)),),
        (Button(msg("button.checkin"), "/checkin"),),
    )
    club = Reply((msg("club.checkin_open", tournament=state.name, start=When(state.start)),))
    return [Notice(club)] + [
        Notice(dm, player=p, expires_at=state.start + timedelta(hours=2)) for p in players
    ]


def _on_match_reminder(
    state: TournamentState, event: ev.MatchReminder, names: Names, link: str | None
) -> list[Notice]:
    number = event.match
    white = event.white
    black = event.black
    start = event.start
    n = _namer(names)
    out = []
    for player, opponent, colour in ((white, black, "white"), (black, white, "black")):
        reply = Reply(
            (
                msg(
                    "remind.match",
                    opponent=n(opponent),
                    start=When(start),
                    table=views.table_number(state, state.matches[number]),
                    colour=msg(f"word.{colour}"),
                    match=number,
                ),
                *(
                    msg("remind.after", match=earlier)
                    for earlier in views.still_playing(state, player, number, start)
                ),
            )
        )
        out.append(Notice(reply, player=player, expires_at=start))
    return out


def _on_lateness_point(
    state: TournamentState, event: ev.LatenessPoint, names: Names, link: str | None
) -> list[Notice]:
    n = _namer(names)
    match = state.matches[event.match]
    line = msg(
        "late.point",
        late=n(event.against),
        minutes=event.minutes_late,
        to=n(event.to),
        points=event.points,
        match=event.match,
        white=n(match.white),
        black=n(match.black),
        ws=event.white_score,
        bs=event.black_score,
    )
    return [
        Notice(Reply((line,))),
        Notice(
            Reply(
                (
                    msg(
                        "late.you",
                        minutes=event.minutes_late,
                        match=event.match,
                        points=event.points,
                    ),
                )
            ),
            player=event.against,
            expires_at=event.at + timedelta(hours=1),
        ),
    ]


def _on_match_forfeited(
    state: TournamentState, event: ev.MatchForfeited, names: Names, link: str | None
) -> list[Notice]:
    losers = event.losers
    winner = event.winner
    reason = event.reason
    n = _namer(names)
    match = state.matches[event.match]
    key = "forfeit.double" if len(losers) == 2 else f"forfeit.{reason}"
    line = msg(
        key,
        loser=n(losers[0]),
        other=n(losers[-1]),
        winner=n(winner),
        match=event.match,
        white=n(match.white),
        black=n(match.black),
        ws=match.white_score,
        bs=match.black_score,
    )
    return [Notice(Reply((line, *_no_winner(state, match))))]


def _on_no_show(
    state: TournamentState, event: ev.NoShow, names: Names, link: str | None
) -> list[Notice]:
    player = event.player
    n = _namer(names)
    return [Notice(Reply((msg("noshow.club", player=n(player)),)))]


def naming_the_bar(notice: Notice, barred: Listed) -> Notice:
    """Return a suspension's notice naming the tournament it bars from, once that exists
    (next month's, opened on this night), not "the club's next tournament": the player's
    own, and the club's no-show line."""
    first = notice.reply.parts[0] if notice.reply.parts else None
    if not isinstance(first, Msg):
        return notice
    if notice.player is not None and first.key == "sanction.you":
        named = suspension(first.params["reason"], barred)
    elif notice.player is None and first.key == "noshow.club":
        named = msg(
            "noshow.club_named", player=first.params["player"], tournament=Name(barred.name)
        )
    else:
        return notice
    return replace(notice, reply=replace(notice.reply, parts=(named, *notice.reply.parts[1:])))


def sanction_reason(kind: str, reason: str, note: str) -> Msg:
    """Return why a player is suspended, as `kind` ("reason", or "card.reason" said of
    them) words it: a director's own words follow "a director's decision"."""
    said = msg(f"{kind}.{reason}")
    if reason == "director" and note.strip():
        return msg("reason.with_note", reason=said, note=Name(note.strip()))
    return said


def suspension(reason: Param, barred: Listed | None, *, after: str | None = None) -> Msg:
    """Tell a player they are suspended: from the tournament it bars them from, once that
    exists, else from the club's next tournament (`after` the one still to be played
    that it was given in, which they may play)."""
    if barred is None and after is not None:
        return msg("sanction.you_after", tournament=Name(after), reason=reason)
    if barred is None:
        return msg("sanction.you", reason=reason)
    return msg(
        "me.suspended_from",
        tournament=Name(barred.name),
        start=When(barred.start, "datetime"),
        reason=reason,
    )


def _on_sanction_recorded(
    state: TournamentState, event: ev.SanctionRecorded, names: Names, link: str | None
) -> list[Notice]:
    player = event.player
    reason = event.reason
    return [Notice(Reply((msg("sanction.you", reason=msg(f"reason.{reason}")),)), player=player)]


def _on_report_pending(
    state: TournamentState, event: ev.ReportPending, names: Names, link: str | None
) -> list[Notice]:
    number = event.match
    by = event.by
    opponent = event.opponent
    n = _namer(names)
    match = state.matches[number]
    line = msg(
        "report.pending",
        by=n(by),
        match=number,
        white=n(match.white),
        black=n(match.black),
        ws=event.white_score,
        bs=event.black_score,
        score=views.score(
            event.white_score,
            event.black_score,
            match.report.tiebreaks if match.report else (),
            match.report.lot_winner if match.report else None,
        ),
        until=When(event.accept_by),
    )
    # The buttons name the report they answer: pressed after a newer report,
    # they are refused with the current state instead of accepting that one.
    seq = f" report:{match.report.seq}" if match.report else ""
    buttons = (
        Button(msg("button.accept"), f"/accept {number}{seq}"),
        Button(msg("button.dispute"), f"/dispute {number}{seq}"),
    )
    return [Notice(Reply((line,), buttons), player=opponent, expires_at=event.accept_by)]


def _on_report_disputed(
    state: TournamentState, event: ev.ReportDisputed, names: Names, link: str | None
) -> list[Notice]:
    number = event.match
    by = event.by
    match = state.matches[number]
    if match.report is None:  # settled since: say how it stands
        return [Notice(Reply((views.match_line(match, names, state.preset.game),)))]
    line = views.disputed_line(match, names, by=by, game=state.preset.game)
    why = (msg("report.dispute_reason", reason=event.reason),) if event.reason else ()
    # The club's directors are called once, where the platform can ping them.
    call = msg("call.directors", directors=Mention("", directors=True), match=number)
    return [Notice(Reply((line, *why, call)))]


def _on_match_finished(
    state: TournamentState, event: ev.MatchFinished, names: Names, link: str | None
) -> list[Notice]:
    match = state.matches[event.match]
    line = views.match_line(match, names, state.preset.game)
    # A director's decision (a dispute settled, a result set) says why, as a correction.
    why = (msg("correct.reason", reason=event.reason),) if event.reason else ()
    return [Notice(Reply((line, *why)))]


def _on_groups_drawn(
    state: TournamentState, event: ev.GroupsDrawn, names: Names, link: str | None
) -> list[Notice]:
    drawn: list[Msg | Table] = [views.draw_line(state, event)]
    if event.barred:
        players = Name(views.name_list(names, event.barred))
        drawn.append(msg("draw.barred", players=players))
    if event.left_out:
        # The director sees who the draw passed over, and how one who is here plays.
        players = Name(views.name_list(names, event.left_out))
        # Where the preset takes no walk-ins, the entries were the organisers' to select.
        if state.preset.entry.walk_ins:
            example = Hint(f"/addplayer {as_typed(names[event.left_out[0]])}")
            drawn.append(msg("draw.left_out", players=players, example=example))
        else:
            drawn.append(msg("draw.left_out_only", players=players))
    drawn += [views.group_table(state, group, names) for group in state.groups]
    first = [m for m in state.stage_matches(Stage.GROUP) if m.round == 1]
    drawn.append(views.schedule_table(state, first, names))
    if link is not None:
        drawn.append(msg("web.announce", url=Link(link)))
    return [Notice(Reply(tuple(drawn)))]


def _on_extra_games_scheduled(
    state: TournamentState, event: ev.ExtraGamesScheduled, names: Names, link: str | None
) -> list[Notice]:
    group = event.group
    players = event.players
    numbers = event.matches
    again = event.again
    line = msg(
        "extra_games",
        group=group,
        players=views.name_list(names, players),
        matches=", ".join(map(str, numbers)),
        count=len(numbers),
    )
    if not again:
        return [Notice(Reply((line,)))]
    # NAV-TIE: level again after extra games; a director may settle it by lot. After a
    # round nobody played, the new one waits for the director (its clocks stand).
    said = (
        msg("extra_games.paused", group=group, match=numbers[0])
        if event.paused and numbers
        else msg("extra_games.again", group=group)
    )
    return [Notice(Reply((line, said), (Button(msg("button.lot"), f"/lot {group}"),)))]


def _on_extra_games_voided(
    state: TournamentState, event: ev.ExtraGamesVoided, names: Names, link: str | None
) -> list[Notice]:
    group = event.group
    numbers = event.matches
    line = msg("extra_games.void", group=group, matches=", ".join(map(str, numbers)))
    return [Notice(Reply((line,)))]


def _on_tie_settled_by_lot(
    state: TournamentState, event: ev.TieSettledByLot, names: Names, link: str | None
) -> list[Notice]:
    group = event.group
    order = event.order
    seed = event.seed
    line = msg("lot.done", group=group, seed=seed, order=views.name_list(names, order))
    return [Notice(Reply((line,)))]


def _on_result_corrected(
    state: TournamentState, event: ev.ResultCorrected, names: Names, link: str | None
) -> list[Notice]:
    number = event.match
    change = event.change
    before = event.before
    reason = event.reason
    n = _namer(names)
    match = state.matches[number]
    played = event.was is not MatchStatus.SCHEDULED
    was: Param = (
        views.score(before[0], before[1], event.before_tiebreaks, event.before_lot)
        if played
        else "-"
    )
    if event.was in (MatchStatus.FORFEIT, MatchStatus.DOUBLE_FORFEIT):
        # The same score, by forfeit before: "(was 3-0)" alone read as no change at all.
        was = msg("correct.was_status", score=was, status=msg(f"status.{event.was.value}"))
    # A match voided before it had a score was nothing: "(was -)" said nothing either.
    key = "void_unplayed" if change == "void" and not played else change
    parts: list[Msg | Table] = [
        msg(
            f"correct.{key}",
            match=number,
            white=n(match.white),
            black=n(match.black),
            # With the tiebreak phases (WAR-V) that decide a level score, as a result shows.
            score=views.score(
                match.white_score, match.black_score, match.tiebreaks, match.lot_winner
            ),
            before=was,
        )
    ]
    if reason:
        parts.append(msg("correct.reason", reason=reason))
    if change == "void":
        parts.extend(_no_winner(state, match))
    return [Notice(Reply(tuple(parts)))]


def _no_winner(state: TournamentState, match: Match) -> list[Msg]:
    """Say, of a knockout match left without a winner, what the director does now: the
    bracket cannot go on from it by itself."""
    if match not in progress.without_winner(state):
        return []
    # A final (or third-place match) feeds no match: it is the tournament that waits.
    feeds = any(match.key in (m.white_from, m.black_from) for m in state.matches.values())
    return [
        msg(
            "correct.no_winner" if feeds else "correct.no_winner_last",
            match=match.number,
            tournament=Name(state.name),
            command=Hint(views.result_command(match, game=state.preset.game)),
            reopen=Hint(f"/reopen {match.number}"),
        )
    ]


def _on_match_reset(
    state: TournamentState, event: ev.MatchReset, names: Names, link: str | None
) -> list[Notice]:
    number = event.match
    match = state.matches[number]
    # Said as the command left it: a correction re-pairs the bracket in passes, and the
    # event holds the first ("8 starts afresh: cruz v ana" of a final ana was not in).
    if (match.white, match.black, match.white_from, match.black_from) == (None,) * 4:
        # The Last Chance final's players come from matches still to be played: no one
        # to name ("? v ?" said nothing).
        return [Notice(Reply((msg("correct.reset_open", match=number),)))]
    # A side nobody holds yet is the match that sends one ("winner of 6"), not "?".
    by_key = views.feeders(state)
    white = views.fed_side(match, match.white, match.white_from, by_key, names)
    black = views.fed_side(match, match.black, match.black_from, by_key, names)
    return [Notice(Reply((msg("correct.reset", match=number, white=white, black=black),)))]


def _on_last_chance_called_off(
    state: TournamentState, event: ev.LastChanceCalledOff, names: Names, link: str | None
) -> list[Notice]:
    # Its players were called to their table: each is named (a ping where they have an
    # account), or they wait there for an opponent now in the main bracket.
    lines = [msg("correct.last_chance_off")]
    for number in event.matches:
        match = state.matches[number]
        assert match.white is not None and match.black is not None
        white, black = views.called(names, match.white), views.called(names, match.black)
        lines.append(msg("correct.match_off", match=number, white=white, black=black))
    return [Notice(Reply(tuple(lines)))]


def _on_matches_held(
    state: TournamentState, event: ev.MatchesHeld, names: Names, link: str | None
) -> list[Notice]:
    numbers = event.matches
    groups = event.groups
    line = msg(
        "correct.held",
        matches=", ".join(map(str, numbers)),
        groups=", ".join(groups),
        count=len(numbers),
    )
    return [Notice(Reply((line,)))]


def _on_pairings_conflict(
    state: TournamentState, event: ev.PairingsConflict, names: Names, link: str | None
) -> list[Notice]:
    numbers = event.matches
    line = msg("correct.conflict", matches=", ".join(map(str, numbers)))
    return [Notice(Reply((line,)))]


def _on_placements_changed(
    state: TournamentState, event: ev.PlacementsChanged, names: Names, link: str | None
) -> list[Notice]:
    champion = event.champion
    previous = event.previous_champion
    n = _namer(names)
    line = msg(
        "correct.placements",
        tournament=state.name,
        champion=n(champion),
        previous=n(previous),
    )
    return [Notice(Reply((line, views.placements_table(state, names))))]


def _on_tournament_reopened(
    state: TournamentState, event: ev.TournamentReopened, names: Names, link: str | None
) -> list[Notice]:
    return [Notice(Reply((msg("correct.unfinished", tournament=state.name),)))]


def _on_entry_reinstated(
    state: TournamentState, event: ev.EntryReinstated, names: Names, link: str | None
) -> list[Notice]:
    player = event.player
    reopened = event.reopened
    n = _namer(names)
    said: list[Msg | Table] = [msg("reinstate.club", player=n(player))]
    if reopened:
        said.append(msg("reinstate.matches", matches=", ".join(map(str, reopened))))
    return [Notice(Reply(tuple(said)))]


def _on_knockout_started(
    state: TournamentState, event: ev.KnockoutStarted, names: Names, link: str | None
) -> list[Notice]:
    qualifiers = event.qualifiers
    # The bracket shows once: as a picture where pictures are on, else as text.
    bracket = pictures.bracket_picture(state, names)
    shown = bracket if bracket is not None else views.bracket_table(state, names)
    return [Notice(Reply((msg("knockout.started", qualifiers=qualifiers), shown)))]


def _on_match_ready(
    state: TournamentState, event: ev.MatchReady, names: Names, link: str | None
) -> list[Notice]:
    number = event.match
    white = event.white
    black = event.black
    start = event.start
    match = state.matches[number]
    # The knockout calls each match as it is paired: its players are pinged.
    line = msg(
        "ko.ready",
        round=views.round_label(match),
        match=number,
        white=views.called(names, white),
        black=views.called(names, black),
        start=When(start),
    )
    return [Notice(Reply((line,)))]


def _on_player_replaced(
    state: TournamentState, event: ev.PlayerReplaced, names: Names, link: str | None
) -> list[Notice]:
    number = event.match
    forfeiter = event.forfeiter
    replacement = event.replacement
    n = _namer(names)
    return [
        Notice(
            Reply(
                (
                    msg(
                        "ko.replaced",
                        forfeiter=n(forfeiter),
                        replacement=n(replacement),
                        match=number,
                    ),
                )
            )
        )
    ]


def _on_tournament_finished(
    state: TournamentState, event: ev.TournamentFinished, names: Names, link: str | None
) -> list[Notice]:
    champion = event.champion
    youngest = event.youngest
    veterans = event.veterans
    n = _namer(names)
    finished: list[Msg | Table]
    if not state.placements:
        # Nobody came (every match lost by forfeit): no "Champion: ?!", no empty table.
        nobody = msg("tournament.finished_nobody", tournament=state.name)
        return [Notice(Reply((nobody,)))]
    if champion is None:
        finished = [msg("tournament.finished_no_champion", tournament=state.name)]
    else:
        finished = [msg("tournament.finished", tournament=state.name, champion=n(champion))]
    finished.append(views.placements_table(state, names))
    if youngest:
        finished.append(msg("prize.youngest", players=views.name_list(names, youngest)))
    if veterans:
        finished.append(msg("prize.veteran", players=views.name_list(names, veterans)))
    if link is not None:
        finished.append(msg("web.announce", url=Link(link)))
    return [Notice(Reply(tuple(finished)))]


SAYS: dict[type[ev.Event], Callable[[TournamentState, Any, Names, str | None], list[Notice]]] = {
    ev.ConfirmReminder: _on_confirm_reminder,
    ev.CheckinOpen: _on_checkin_open,
    ev.MatchReminder: _on_match_reminder,
    ev.LatenessPoint: _on_lateness_point,
    ev.MatchForfeited: _on_match_forfeited,
    ev.NoShow: _on_no_show,
    ev.SanctionRecorded: _on_sanction_recorded,
    ev.ReportPending: _on_report_pending,
    ev.ReportDisputed: _on_report_disputed,
    ev.MatchFinished: _on_match_finished,
    ev.GroupsDrawn: _on_groups_drawn,
    ev.ExtraGamesScheduled: _on_extra_games_scheduled,
    ev.ExtraGamesVoided: _on_extra_games_voided,
    ev.TieSettledByLot: _on_tie_settled_by_lot,
    ev.ResultCorrected: _on_result_corrected,
    ev.MatchReset: _on_match_reset,
    ev.MatchesHeld: _on_matches_held,
    ev.LastChanceCalledOff: _on_last_chance_called_off,
    ev.PairingsConflict: _on_pairings_conflict,
    ev.PlacementsChanged: _on_placements_changed,
    ev.TournamentReopened: _on_tournament_reopened,
    ev.EntryReinstated: _on_entry_reinstated,
    ev.KnockoutStarted: _on_knockout_started,
    ev.MatchReady: _on_match_ready,
    ev.PlayerReplaced: _on_player_replaced,
    ev.TournamentFinished: _on_tournament_finished,
}
