"""Turn the events rules return into notices for the club's chats and its players."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta
from typing import Any

from commands import pictures, views
from commands.replies import Button, Link, Msg, Param, Reply, Table, When, msg
from tournament import events as ev
from tournament.model import MatchStatus, PlayerId, Stage
from tournament.state import TournamentState

Names = Mapping[PlayerId, str]


@dataclass
class Notice:
    """A message caused by a command or an effect: to the club's chats or to a player."""

    reply: Reply
    player: PlayerId | None = None  # None: every chat of the club
    coalesce: str | None = None  # a newer notice with this key replaces the older one
    expires_at: datetime | None = None  # not worth sending after this


# Automatic effects that change results or sanctions: the audit log records them.
_AUDITED = (
    ev.LatenessPoint,
    ev.MatchForfeited,
    ev.NoShow,
    ev.SanctionRecorded,
    ev.MatchFinished,
    ev.PlayerReplaced,
    ev.GroupsDrawn,
    ev.KnockoutStarted,
    ev.TournamentFinished,
    ev.ResultCorrected,
    ev.MatchReset,
    ev.PlacementsChanged,
    ev.TournamentReopened,
    ev.EntryReinstated,
    ev.TieSettledByLot,
    ev.ExtraGamesVoided,
    ev.PairingsConflict,
    ev.MatchesHeld,
)

# Events that cause no message of their own, and why; every other event must cause one
# (tests/commands/test_announce.py checks that no event is forgotten).
SILENT: dict[type[ev.Event], str] = {}


def is_audited(event: ev.Event) -> bool:
    return isinstance(event, _AUDITED)


def detail(event: ev.Event) -> dict[str, Any]:
    """Return an event's fields as JSON-ready data for the audit log."""
    return {
        k: (v.isoformat() if isinstance(v, datetime) else list(v) if isinstance(v, tuple) else v)
        for k, v in asdict(event).items()
        if k != "at"
    }


def notices(
    state: TournamentState, events: list[ev.Event], names: Names, *, link: str | None = None
) -> list[Notice]:
    """Return the messages the events cause, in order.

    A correction and everything it causes for the club (new pairings, placements) are
    said once, in one message. `link` is the tournament's public page, while the club's
    pages are on: the draw and the final carry it.
    """
    out: list[Notice] = []
    standings_due: set[str] = set()
    correction: Notice | None = None
    bracket_due = False
    for event in events:
        if isinstance(event, ev.KnockoutStarted) and standings_due:
            # The last group table closes the group stage: it comes before the bracket.
            out.extend(_standings_notices(state, standings_due, names))
            standings_due.clear()
        caused = _notices(state, event, names, link)
        if isinstance(event, ev.ResultCorrected) and correction is None:
            correction = caused[0]
            out.append(correction)
            caused = caused[1:]
        for notice in caused:
            if correction is not None and notice.player is None and notice.coalesce is None:
                correction.reply = Reply(
                    correction.reply.parts + notice.reply.parts,
                    correction.reply.buttons + notice.reply.buttons,
                )
            else:
                out.append(notice)
        if isinstance(event, ev.MatchFinished | ev.MatchForfeited | ev.ResultCorrected):
            match = state.matches[event.match]
            if match.stage in (Stage.GROUP, Stage.TIEBREAK) and match.group:
                standings_due.add(match.group)
            elif match.key is not None:
                bracket_due = True
        if isinstance(event, ev.MatchReady | ev.PlayerReplaced | ev.MatchReset):
            bracket_due = True
        # Matches played again (a reinstated player, a reset pairing) change the table.
        reset = (
            event.reopened
            if isinstance(event, ev.EntryReinstated)
            else (event.match,)
            if isinstance(event, ev.MatchReset)
            else ()
        )
        for number in reset:
            again = state.matches.get(number)
            if again is not None and again.stage in (Stage.GROUP, Stage.TIEBREAK) and again.group:
                standings_due.add(again.group)
    started = any(isinstance(event, ev.KnockoutStarted) for event in events)
    if started and not any(isinstance(event, ev.ResultCorrected) for event in events):
        # The start's own message carries the bracket; a correction that reshaped a
        # bracket already on show edits its live picture instead.
        bracket_due = False
    out.extend(_standings_notices(state, standings_due, names))
    # The live bracket is a picture only: where pictures cannot be shown, the result
    # and "next match" lines already say the same, one message per event.
    live = pictures.bracket_picture(state, names, text=False) if bracket_due else None
    if live is not None:
        out.append(Notice(Reply((live,)), coalesce=f"bracket:{state.id}"))
    return out


def _standings_notices(state: TournamentState, groups: set[str], names: Names) -> list[Notice]:
    """Return the live tables of `groups`, in group order."""
    return [
        Notice(
            Reply((pictures.group_picture(state, group, names),)),
            coalesce=f"standings:{state.id}:{group.name}",
        )
        for group in state.groups
        if group.name in groups
    ]


def _notices(
    state: TournamentState, event: ev.Event, names: Names, link: str | None = None
) -> list[Notice]:
    def n(player: PlayerId | None) -> Param:
        return views.name(names, player)

    notice = Notice
    match event:
        case ev.ConfirmReminder(players=players):
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
            return [notice(reply, player=p, expires_at=state.start) for p in players]
        case ev.CheckinOpen(players=players):
            dm = Reply(
                (msg("remind.checkin", tournament=state.name, start=When(state.start)),),
                (Button(msg("button.checkin"), "/checkin"),),
            )
            club = Reply(
                (msg("club.checkin_open", tournament=state.name, start=When(state.start)),)
            )
            return [notice(club)] + [
                notice(dm, player=p, expires_at=state.start + timedelta(hours=2)) for p in players
            ]
        case ev.MatchReminder(match=number, white=white, black=black, start=start):
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
                    )
                )
                out.append(notice(reply, player=player, expires_at=start))
            return out
        case ev.LatenessPoint():
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
                notice(Reply((line,))),
                notice(
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
        case ev.MatchForfeited(losers=losers, winner=winner, reason=reason):
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
            return [notice(Reply((line,)))]
        case ev.NoShow(player=player):
            return [notice(Reply((msg("noshow.club", player=n(player)),)))]
        case ev.SanctionRecorded(player=player, reason=reason):
            return [
                notice(
                    Reply((msg("sanction.you", reason=msg(f"reason.{reason}")),)), player=player
                )
            ]
        case ev.ReportPending(match=number, by=by, opponent=opponent):
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
            return [notice(Reply((line,), buttons), player=opponent, expires_at=event.accept_by)]
        case ev.ReportDisputed(match=number, by=by):
            match = state.matches[number]
            if match.report is None:  # settled since: say how it stands
                return [notice(Reply((views.match_line(match, names),)))]
            line = views.disputed_line(match, names, by=by, game=state.preset.game)
            return [notice(Reply((line,)))]
        case ev.MatchFinished():
            match = state.matches[event.match]
            return [notice(Reply((views.match_line(match, names),)))]
        case ev.GroupsDrawn(groups=count, matches=matches, seed=seed):
            drawn: list[Msg | Table] = [
                msg(
                    "draw.done",
                    groups=count,
                    matches=matches,
                    seed=seed,
                    fingerprint=state.draw.fingerprint if state.draw else "",
                )
            ]
            drawn += [views.group_table(state, group, names) for group in state.groups]
            first = [m for m in state.stage_matches(Stage.GROUP) if m.round == 1]
            drawn.append(views.schedule_table(state, first, names))
            if link is not None:
                drawn.append(msg("web.announce", url=Link(link)))
            return [notice(Reply(tuple(drawn)))]
        case ev.ExtraGamesScheduled(group=group, players=players, matches=numbers, again=again):
            line = msg(
                "extra_games",
                group=group,
                players=views.name_list(names, players),
                matches=", ".join(map(str, numbers)),
                count=len(numbers),
            )
            if not again:
                return [notice(Reply((line,)))]
            # NAV-TIE: level again after extra games; a director may settle it by lot.
            return [
                notice(
                    Reply(
                        (line, msg("extra_games.again", group=group)),
                        (Button(msg("button.lot"), f"/lot {group}"),),
                    )
                )
            ]
        case ev.ExtraGamesVoided(group=group, matches=numbers):
            line = msg("extra_games.void", group=group, matches=", ".join(map(str, numbers)))
            return [notice(Reply((line,)))]
        case ev.TieSettledByLot(group=group, order=order, seed=seed):
            line = msg("lot.done", group=group, seed=seed, order=views.name_list(names, order))
            return [notice(Reply((line,)))]
        case ev.ResultCorrected(match=number, change=change, before=before, reason=reason):
            match = state.matches[number]
            played = event.was is not MatchStatus.SCHEDULED
            was = f"{before[0]}-{before[1]}" if played else "-"
            parts: list[Msg | Table] = [
                msg(
                    f"correct.{change}",
                    match=number,
                    white=n(match.white),
                    black=n(match.black),
                    ws=match.white_score,
                    bs=match.black_score,
                    before=was,
                )
            ]
            if reason:
                parts.append(msg("correct.reason", reason=reason))
            return [notice(Reply(tuple(parts)))]
        case ev.MatchReset(match=number, white=white, black=black):
            return [
                notice(
                    Reply((msg("correct.reset", match=number, white=n(white), black=n(black)),))
                )
            ]
        case ev.MatchesHeld(matches=numbers, groups=groups):
            line = msg(
                "correct.held", matches=", ".join(map(str, numbers)), groups=", ".join(groups)
            )
            return [notice(Reply((line,)))]
        case ev.PairingsConflict(matches=numbers):
            line = msg("correct.conflict", matches=", ".join(map(str, numbers)))
            return [notice(Reply((line,)))]
        case ev.PlacementsChanged(champion=champion, previous_champion=previous):
            line = msg(
                "correct.placements",
                tournament=state.name,
                champion=n(champion),
                previous=n(previous),
            )
            return [notice(Reply((line, views.placements_table(state, names))))]
        case ev.TournamentReopened():
            return [notice(Reply((msg("correct.unfinished", tournament=state.name),)))]
        case ev.EntryReinstated(player=player, reopened=reopened):
            said: list[Msg | Table] = [msg("reinstate.club", player=n(player))]
            if reopened:
                said.append(msg("reinstate.matches", matches=", ".join(map(str, reopened))))
            return [notice(Reply(tuple(said)))]
        case ev.KnockoutStarted(qualifiers=qualifiers):
            # The bracket shows once: as a picture where pictures are on, else as text.
            bracket = pictures.bracket_picture(state, names)
            shown = bracket if bracket is not None else views.bracket_table(state, names)
            return [notice(Reply((msg("knockout.started", qualifiers=qualifiers), shown)))]
        case ev.MatchReady(match=number, white=white, black=black, start=start):
            match = state.matches[number]
            line = msg(
                "ko.ready",
                round=views.round_label(match),
                match=number,
                white=n(white),
                black=n(black),
                start=When(start),
            )
            return [notice(Reply((line,)))]
        case ev.PlayerReplaced(match=number, forfeiter=forfeiter, replacement=replacement):
            return [
                notice(
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
        case ev.TournamentFinished(champion=champion, youngest=youngest, veterans=veterans):
            finished: list[Msg | Table]
            if not state.placements:
                # Nobody came (every match lost by forfeit): no "Champion: ?!", no empty table.
                nobody = msg("tournament.finished_nobody", tournament=state.name)
                return [notice(Reply((nobody,)))]
            if champion is None:
                finished = [msg("tournament.finished_no_champion", tournament=state.name)]
            else:
                finished = [
                    msg("tournament.finished", tournament=state.name, champion=n(champion))
                ]
            finished.append(views.placements_table(state, names))
            if youngest:
                finished.append(msg("prize.youngest", players=views.name_list(names, youngest)))
            if veterans:
                finished.append(msg("prize.veteran", players=views.name_list(names, veterans)))
            if link is not None:
                finished.append(msg("web.announce", url=Link(link)))
            return [notice(Reply(tuple(finished)))]
    return []
