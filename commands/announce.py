"""Turn the events rules return into notices for the club's chats and its players."""

from __future__ import annotations

from dataclasses import asdict
from datetime import datetime, timedelta
from typing import Any

from commands import pictures, views
from commands.messages import When
from commands.notices import SAYS, Names
from commands.notices import Notice as Notice  # where the session imports it from
from commands.replies import Name, Reply, msg
from tournament import events as ev
from tournament.model import Stage, TournamentStatus
from tournament.state import TournamentState

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
    ev.LastChanceCalledOff,
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
        if k != "at" and not (k == "reason" and v == "")  # no reason given: none logged
    }


def notices(
    state: TournamentState,
    events: list[ev.Event],
    names: Names,
    *,
    link: str | None = None,
    own_from: int | None = None,
) -> list[Notice]:
    """Return the messages the events cause, in order.

    A correction and everything it causes for the club (new pairings, placements) are
    said once, in one message. `link` is the tournament's public page, while the club's
    pages are on: the draw and the final carry it. The events from index `own_from` on
    are a command's own act: the messages they cause are marked as answering it.
    """
    out: list[Notice] = []
    standings_due: set[str] = set()
    correction: Notice | None = None
    bracket_due = False
    for index, event in enumerate(events):
        if isinstance(event, ev.KnockoutStarted) and standings_due:
            # The last group table closes the group stage: it comes before the bracket.
            out.extend(_standings_notices(state, standings_due, names))
            standings_due.clear()
        caused = _notices(state, event, names, link)
        if own_from is not None and index >= own_from:
            for notice in caused:
                notice.answers = True
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
        groups, bracket = _live_pictures_due(state, event)
        standings_due |= groups
        bracket_due = bracket_due or bracket
    started = any(isinstance(event, ev.KnockoutStarted) for event in events)
    if started and not any(isinstance(event, ev.ResultCorrected) for event in events):
        # The start's own message carries the bracket; a correction that reshaped a
        # bracket already on show edits its live picture instead.
        bracket_due = False
    out.extend(_standings_notices(state, standings_due, names))
    out.extend(_round_calls(state, events, names))
    out.extend(_finish_waits(state, events, names))
    # The live bracket is a picture only: where pictures cannot be shown, the result
    # and "next match" lines already say the same, one message per event.
    live = pictures.bracket_picture(state, names, text=False) if bracket_due else None
    if live is not None:
        out.append(Notice(Reply((live,)), coalesce=f"bracket:{state.id}"))
    return out


def _finish_waits(state: TournamentState, events: list[ev.Event], names: Names) -> list[Notice]:
    """Once the final has its result, a tournament that does not finish says which
    matches it waits for: a Last Chance final never reported left February in play, its
    ranking points never given, and nobody was told."""
    ended = {e.match for e in events if isinstance(e, ev.MatchFinished | ev.MatchForfeited)}
    if not ended or state.status is not TournamentStatus.KNOCKOUT:
        return []  # most results: a command's own path pays for nothing more
    finals = {m.number for m in state.stage_matches(Stage.KNOCKOUT) if m.round_name == "final"}
    if not finals & ended or not all(state.matches[n].is_final for n in finals):
        return []
    waiting = sorted((m for m in state.matches.values() if not m.is_final), key=lambda m: m.number)
    if not waiting:
        return []
    lines = [views.match_line(m, names, state.preset.game) for m in waiting]
    said = msg("finish.waits", tournament=Name(state.name), count=len(waiting))
    return [Notice(Reply((said, *lines)))]


def _round_calls(state: TournamentState, events: list[ev.Event], names: Names) -> list[Notice]:
    """Return one club message per group round about to start: its tables, players and
    colours (the players also get their own reminder). Knockout matches are called one
    by one when they are paired."""
    due: dict[datetime, list[ev.MatchReminder]] = {}
    for event in [*events, *_unreminded(state, events)]:
        if isinstance(event, ev.MatchReminder):
            match = state.matches.get(event.match)
            if match is not None and match.stage in (Stage.GROUP, Stage.TIEBREAK):
                due.setdefault(event.start, []).append(event)
    out = []
    for start in sorted(due):
        reminders = due[start]
        calls = sorted(
            ((views.table_number(state, state.matches[r.match]), r) for r in reminders),
            key=lambda call: (call[0], call[1].match),
        )
        parts = [msg("call.round", start=When(start))]
        for table, r in calls:
            parts.append(
                msg(
                    "call.match",
                    table=table,
                    match=r.match,
                    white=views.called(names, r.white),
                    black=views.called(names, r.black),
                )
            )
            # A table called while its players still play earlier matches: the room sees
            # why that table waits, in one line.
            busy = [
                (views.name(names, player), earlier)
                for player in (r.white, r.black)
                for earlier in views.still_playing(state, player, r.match, start)
            ]
            if len(busy) == 1:
                parts.append(msg("call.busy", name=busy[0][0], match=busy[0][1]))
            elif busy:
                (white, white_match), (black, black_match) = busy
                parts.append(
                    msg(
                        "call.busy_both",
                        white=white,
                        white_match=white_match,
                        black=black,
                        black_match=black_match,
                    )
                )
        out.append(Notice(Reply(tuple(parts)), expires_at=start))
    return out


def _unreminded(state: TournamentState, events: list[ev.Event]) -> list[ev.MatchReminder]:
    """Return, at the draw, the first group round's matches no reminder will call: a draw
    made within the reminder time before the start (the usual case) is their call."""
    drawn = next((e for e in events if isinstance(e, ev.GroupsDrawn)), None)
    if drawn is None:
        return []
    before = timedelta(minutes=state.preset.reminders.match_minutes_before)
    uncalled = [
        m
        for m in state.stage_matches(Stage.GROUP)
        if m.is_ready
        and m.start is not None
        and m.white is not None
        and m.black is not None
        and (m.created_at is None or m.start - before <= m.created_at)
    ]
    first = min((m.start for m in uncalled if m.start is not None), default=None)
    return [
        ev.MatchReminder(at=drawn.at, match=m.number, white=m.white, black=m.black, start=first)
        for m in uncalled
        if first is not None and m.start == first and m.white is not None and m.black is not None
    ]


def _live_pictures_due(state: TournamentState, event: ev.Event) -> tuple[set[str], bool]:
    """Return the groups whose live table an event changes, and whether it changes the
    live bracket."""
    groups: set[str] = set()
    bracket = isinstance(event, ev.MatchReady | ev.PlayerReplaced | ev.MatchReset)
    if isinstance(event, ev.MatchFinished | ev.MatchForfeited | ev.ResultCorrected):
        match = state.matches[event.match]
        if match.stage in (Stage.GROUP, Stage.TIEBREAK) and match.group:
            groups.add(match.group)
        elif match.key is not None:
            bracket = True
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
            groups.add(again.group)
    if isinstance(event, ev.TieSettledByLot):
        groups.add(event.group)  # the lot decided its extra games: the table's final order
    return groups, bracket


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
    """Return the notices one event causes: one function per event, chosen by its type."""
    said = SAYS.get(type(event))
    return [] if said is None else said(state, event, names, link)
