"""The director's glance (/status): what waits for them, in one private message."""

from __future__ import annotations

from commands import views
from commands.params import Args, as_typed
from commands.replies import Hint, Msg, Name, Param, Reply, Table, When, msg
from commands.session import Session
from commands.views import Names
from tournament import attendance, calendar, due, progress, roster, sanctions
from tournament.model import EntryStatus, MatchStatus, Stage, TournamentStatus
from tournament.scoring import example_score
from tournament.state import Entry, Match, TournamentState, minutes


async def status(s: Session, a: Args) -> Reply:
    """One glance for the director: late players, missing results, disputes, waiting."""
    state = await s.tournament()
    names = await s.names(set(state.entries))
    parts: list[Msg | Table] = [
        msg(
            "glance.title",
            tournament=Name(state.name),
            status=views.tournament_status(state, s.night_passed(state)),
        )
    ]
    active = [e for e in state.entries.values() if e.status is EntryStatus.ACTIVE]
    waiting = [e for e in active if not e.approved]
    if waiting:
        parts.append(msg("glance.waiting", players=", ".join(names[e.player] for e in waiting)))
    if state.status is TournamentStatus.REGISTRATION:
        barred = await s.suspended_from(state)
        parts.extend(_before_the_draw(s, state, active, names, barred))
    parts.extend(_outside_the_groups(state, names))
    parts.extend(await _matches_waiting(s, state, names))
    parts.extend(_without_winner(state, names))
    parts.extend(_contradicted(s, state, names))
    parts.extend(_held(state))
    if len(parts) == 1:
        parts.append(msg("glance.all_clear"))
    parts.extend(_coming_up(s, state, names))
    listed = await s.uow.tournaments.list(s.club.id)
    parts.extend(_unfinished_before(s, state, listed))
    parts.extend(await overdue_others(s, listed, state.id))
    return Reply(tuple(parts), private=True)


async def overdue_others(s: Session, listed: list[calendar.Listed], shown: int) -> list[Msg]:
    """Name the tournaments but `shown` still waiting for a draw whose day has passed: no
    command means them any more, and nobody called them off. A suspension for one of
    them waits for it (HGV-2.3.6: the next tournament played), and is said so."""
    late = [t for t in listed if t.id != shown and s.night_passed(t)]
    if not late:
        return []
    parts = [
        msg(
            "glance.overdue_others",
            count=len(late),
            tournaments=Name(", ".join(t.name for t in late)),
            example=Hint(f'/tournament cancel {as_typed(late[0].name)} reason:"..."'),
        )
    ]
    return parts + await _suspensions_waiting(s, late)


async def _suspensions_waiting(s: Session, late: list[calendar.Listed]) -> list[Msg]:
    """Name who is suspended from each of the `late` tournaments, never played."""
    records = await s.uow.sanctions.for_club(s.club.id)
    parts = []
    for tournament in late:
        barred = sanctions.barred_from(records, tournament.id)
        if barred:
            names = await s.names(set(barred))
            parts.append(
                msg(
                    "glance.overdue_suspended",
                    tournament=Name(tournament.name),
                    players=Name(", ".join(sorted(names[p] for p in barred))),
                )
            )
    return parts


def _unfinished_before(
    s: Session, state: TournamentState, listed: list[calendar.Listed]
) -> list[Msg]:
    """Return the earlier nights still in play: a final never reported keeps their ranking
    points back, and tonight's glance was the only one a director read."""
    playing = (TournamentStatus.GROUPS, TournamentStatus.KNOCKOUT)
    zone = s.club.timezone
    day = calendar.local(state.start, zone).date()
    earlier = [
        t for t in listed if t.status in playing and calendar.local(t.start, zone).date() < day
    ]
    if not earlier:
        return []
    latest = max(earlier, key=lambda t: (t.start, t.id))
    return [
        msg(
            "glance.unfinished",
            count=len(earlier),
            tournaments=Name(", ".join(t.name for t in earlier)),
            example=Hint(f"/status tournament:{as_typed(latest.name)}"),
        )
    ]


def _outside_the_groups(state: TournamentState, names: Names) -> list[Msg]:
    """Return who is entered but not drawn while a new draw can still place them: walk-ins
    waiting for it, and those the draw left out (neither confirmed nor here)."""
    if not state.preset.entry.walk_ins or roster.has_results(state):
        return []
    parts = []
    waiting = roster.waiting_for_draw(state)
    if waiting:
        players = Name(", ".join(names[p] for p in waiting))
        parts.append(msg("glance.walk_ins", count=len(waiting), players=players))
    left = roster.left_out(state)
    if left:
        example = Hint(f"/addplayer {as_typed(names[left[0]])}")
        players = Name(", ".join(names[p] for p in left))
        parts.append(msg("glance.left_out", count=len(left), players=players, example=example))
    return parts


def _before_the_draw(
    s: Session, state: TournamentState, active: list[Entry], names: Names, barred: frozenset[int]
) -> list[Msg]:
    """Before the draw: who has not said they come, who is not at the venue yet, and who
    a suspension keeps out of the draw (HGV-2.3.6)."""
    parts: list[Msg] = []

    def listing(key: str, entries: list[Entry], **more: Param) -> None:
        if entries:
            players = Name(", ".join(names[e.player] for e in entries))
            parts.append(msg(key, count=len(entries), players=players, **more))

    suspended = [e for e in active if e.player in barred]
    if suspended:
        lift = f'/lift {as_typed(names[suspended[0].player])} reason:"..."'
        listing("glance.suspended", suspended, example=Hint(lift))
    if s.night_passed(state):
        # Nobody comes to a night whose day passed: who confirmed or is here is no news,
        # and "the start (20:00) has passed: /draw" read as tonight's (a draw now would
        # make every first match late at once). It is moved or called off.
        parts.append(_start_overdue(s, state))
        return parts
    active = [e for e in active if e.player not in barred]
    listing(
        "glance.unconfirmed",
        [e for e in active if e.approved and not e.confirmed and not e.checked_in],
    )
    not_here = [e for e in active if e.approved and e.confirmed and not e.present_now()]
    if not_here and attendance.checkin_open(state, s.now):
        listing("glance.not_here", not_here, example=Name(names[not_here[0].player]))
    drawable = [e for e in active if e.approved and (e.confirmed or e.checked_in)]
    key = "glance.start_passed" if s.now >= state.start else "glance.ready_to_draw"
    if not drawable:
        key = "glance.nobody_to_draw"  # never "the draw can be made with 0 players"
    elif len(drawable) == 1:
        key = "glance.one_to_draw"  # the draw would refuse one player
    parts.append(msg(key, count=len(drawable), start=When(state.start)))
    return parts


def _start_overdue(s: Session, state: TournamentState) -> Msg:
    """Say that `state` was to be played on an earlier day, with the lines that move it
    to its weekday and hour after now, or call it off."""
    zone = s.club.timezone
    later = calendar.local(calendar.same_time_later(state.start, s.now, zone), zone)
    named = as_typed(state.name)
    move = f'/tournament move {named} start:"{later:%Y-%m-%d %H:%M}" reason:"..."'
    return msg(
        "glance.start_overdue",
        start=When(state.start, "datetime"),
        move=Hint(move),
        cancel=Hint(f'/tournament cancel {named} reason:"..."'),
    )


async def _matches_waiting(s: Session, state: TournamentState, names: Names) -> list[Msg | Table]:
    """Return the late, disputed, pending and missing matches, each kind with a hint."""
    late: list[Match] = []
    missing: list[Match] = []
    disputed: list[Match] = []
    pending: list[Match] = []
    for match in sorted(state.matches.values(), key=lambda m: m.number):
        if match.is_final or not match.is_ready or match.start is None:
            continue
        if match.status is MatchStatus.DISPUTED:
            disputed.append(match)
        elif match.status is MatchStatus.PENDING:
            pending.append(match)
        elif match.start <= s.now:
            # Late while the match has not begun, as the lateness rules read it: a player
            # the director let go (/away) after it began is not late for it (HGV-2.3.7).
            (late if due.late_at(state, match, s.now) else missing).append(match)
    parts: list[Msg | Table] = []
    for key, matches in (
        ("glance.late", late),
        ("glance.disputed", disputed),
        ("glance.pending", pending),
        ("glance.missing", missing),
    ):
        if matches:
            first = matches[0]
            if key == "glance.late":
                # The /pause hint names a match whose clock runs: none, no /pause hint.
                running = [m for m in matches if not m.is_paused]
                first = running[0] if running else first
                key = "glance.late" if running else "glance.late_paused"
            # The hint sets the score reported, or one that ends a match of its length.
            won, lost = example_score(state.preset.game, first.length)
            parts.append(
                msg(
                    key,
                    count=len(matches),
                    match=first.number,
                    white=views.name(names, first.white),
                    black=views.name(names, first.black),
                    command=Hint(
                        views.result_command(first, first.report, game=state.preset.game)
                    ),
                    report=Hint(f"/report {won}-{lost}"),
                )
            )
            for m in matches:
                parts.append(views.match_line(m, names, state.preset.game))
                if key in ("glance.late", "glance.late_paused"):
                    parts.append(_who_is_late(s, state, m, names))
                if key == "glance.pending":
                    parts.append(await _stands_at(s, state, m, names))
                # Not begun because a player is still in an earlier match: not forgotten.
                # One with a score reported or contested was played: it waits for nothing.
                earlier = (
                    [] if key in ("glance.pending", "glance.disputed") else _waits_for(state, m)
                )
                if earlier:
                    numbers = ", ".join(map(str, earlier))
                    parts.append(
                        msg("glance.waits", match=m.number, earlier=numbers, count=len(earlier))
                    )
    return parts


async def _stands_at(s: Session, state: TournamentState, match: Match, names: Names) -> Msg:
    """Say when a reported result stands by itself, and that it cannot be answered when
    the opponent is a player the director entered, without a chat account."""
    assert match.report is not None  # pending: a report waits
    at = When(match.report.at + minutes(state.preset.reporting.accept_minutes))
    opponent = match.opponent_of(match.report.by)
    if opponent is not None and not await s.uow.players.accounts(opponent):
        return msg("glance.stands_no_account", opponent=views.name(names, opponent), at=at)
    return msg("glance.stands_at", at=at)


def _who_is_late(s: Session, state: TournamentState, match: Match, names: Names) -> Msg:
    """Return who of a late match is not here, and when they lose it by forfeit: the
    director sees whom to call, and by when (HGV-2.3.1)."""
    absent = [p for p in match.players if not state.entries[p].present_at(s.now)]
    players = Name(", ".join(names.get(p, f"#{p}") for p in absent))
    at = due.forfeit_at(state, match)
    if at is None and match.stage is Stage.TIEBREAK and len(absent) == len(match.players):
        # An extra game neither player came to (NAV-TIE): the tie is the director's.
        lot = Hint(f"/lot {match.group}")
        return msg("glance.absent_paused_lot", players=players, command=lot)
    if at is None:
        return msg("glance.absent_paused", players=players)
    return msg("glance.absent", players=players, at=When(at))


def _waits_for(state: TournamentState, match: Match) -> list[int]:
    """Return the earlier matches, not final yet, that `match`'s players are still in."""
    if match.start is None:
        return []
    return sorted(
        {
            e
            for p in match.players
            for e in views.still_playing(state, p, match.number, match.start)
        }
    )


_COMING_UP_LISTED = 4  # a big club's next round is a count, not a page


def _coming_up(s: Session, state: TournamentState, names: Names) -> list[Msg]:
    """The matches that start next: a quiet glance between rounds still says when the
    next one is called, and who plays it."""
    later = [m for m in state.matches.values() if not m.is_final and m.start and m.start > s.now]
    if not later:
        return []
    first = min(m.start for m in later if m.start)
    batch = sorted((m for m in later if m.start == first), key=lambda m: m.number)
    parts = [msg("glance.next", count=len(batch))]
    parts.extend(views.match_line(m, names, state.preset.game) for m in batch[:_COMING_UP_LISTED])
    if len(batch) > _COMING_UP_LISTED:
        parts.append(msg("glance.next_more", count=len(batch) - _COMING_UP_LISTED))
    return parts


def _without_winner(state: TournamentState, names: Names) -> list[Msg]:
    """The knockout matches void or lost by both players: the bracket waits for a winner."""
    matches = progress.without_winner(state)
    if not matches:
        return []
    first = matches[0]
    parts = [
        msg(
            "glance.no_winner",
            count=len(matches),
            command=Hint(views.result_command(first, game=state.preset.game)),
            reopen=Hint(f"/reopen {first.number}"),
        )
    ]
    parts.extend(views.match_line(m, names, state.preset.game) for m in matches)
    return parts


def _contradicted(s: Session, state: TournamentState, names: Names) -> list[Msg]:
    """The played bracket matches a corrected result no longer gives: the knockout stands
    still until a director has one played again or corrects the result back."""
    numbers = progress.standing_conflicts(state, s.now)
    if not numbers:
        return []
    parts = [
        msg(
            "glance.conflict",
            count=len(numbers),
            reopen=Hint(f"/reopen {numbers[0]}"),
        )
    ]
    parts.extend(views.match_line(state.matches[n], names, state.preset.game) for n in numbers)
    return parts


def _held(state: TournamentState) -> list[Msg]:
    """A reopened group match holds the knockout matches that depend on it."""
    held = sorted(progress.held(state))
    if not held:
        return []
    reopened = sorted(
        {m.group or "" for m in state.stage_matches(*progress.GROUP_STAGES) if not m.is_final}
    )
    return [
        msg(
            "glance.held",
            count=len(held),
            matches=", ".join(map(str, held)),
            groups=", ".join(reopened),
        )
    ]
