"""Presence, forfeits, sanctions, approvals and a match's lateness clock, as directors decide."""

from __future__ import annotations

from datetime import datetime

from commands import announce
from commands.notices import sanction_reason, suspension
from commands.params import Args, as_typed
from commands.picking import entered, named_entry, named_player, numbered
from commands.replies import Hint, Msg, Name, Reply, announced, msg, refused_line, say
from commands.session import Session
from tournament import (
    attendance,
    due,
    overrides,
    roster,
    sanctions,
)
from tournament.club import Player
from tournament.model import EntryStatus, MatchStatus, PlayerId, Refused, TournamentStatus
from tournament.state import TournamentState


async def reinstate(s: Session, a: Args) -> Reply:
    """Undo a withdrawal, no-show or removal, with a reason; lift the suspension it caused."""
    reason = a.text("reason") or ""
    player, state = await named_entry(s, a)
    try:
        events = attendance.reinstate(state, player.id, s.now)
    except Refused as refusal:
        if refusal.code != "entry_already_active":
            raise
        named = Refused("entry_already_active", name=player.name, tournament=state.name)
        raise _forfeit_to_undo(state, player) or named from None
    s.events.extend(events)
    lifted = sanctions.caused_by(await s.uow.sanctions.for_club(s.club.id), player.id, state.id)
    for record in lifted:
        sanctions.end(record, s.now, how="lifted", note=reason)
        await s.uow.sanctions.save(record)
    s.log("reinstate", player=player.name, reason=reason)
    # The club's announcement, and what the director needs besides: one message.
    said = announce.notices(state, events, await s.names(set(state.entries)))
    parts = [part for notice in said[:1] for part in notice.reply.parts]
    aside = [msg("reinstate.lifted", name=Name(player.name))] if lifted else []
    if state.draw is not None and not state.matches_of(player.id):
        # Back, but outside the groups: only a new draw, before any result, brings them in.
        if state.preset.entry.walk_ins and not roster.has_results(state):
            aside.append(msg("reinstate.redraw", name=Name(player.name)))
    elif attendance.checkin_open(state, s.now):
        # Weeks before the night there is no arrival to register again yet.
        aside.append(msg("reinstate.checkin", name=Name(player.name)))
    return announced(Reply(tuple(parts)), *aside)


def _forfeit_to_undo(state: TournamentState, player: Player) -> Refused | None:
    """Return the refusal of a /reinstate meant for a forfeit ("he came back"): the entry
    is active, and the match given away is undone by /reopen, not by reinstating."""
    lost = [
        m.number
        for m in state.matches_of(player.id)
        if m.status is MatchStatus.FORFEIT and player.id in m.forfeited_by
    ]
    if not lost:
        return None
    number = max(lost)
    command = f"/reopen {number}"
    return Refused("reinstate_forfeit", name=player.name, match=number, command=command)


async def present(s: Session, a: Args) -> Reply:
    """Mark players present (check them in): /present alice, /present alice bob."""
    players = a.players("player")
    state = await s.tournament()
    parts: list[Msg] = []
    for player in players:
        try:
            await entered(s, state, player)
            parts.append(_check_in(s, state, player))
            parts.extend(_lateness_stands(state, player))
        except Refused as refusal:
            if len(players) == 1:
                raise
            # One of several: the others are marked, this one's line says why not.
            parts.append(refused_line(refusal))
    return Reply(tuple(parts))


def _lateness_stands(state: TournamentState, player: Player) -> tuple[Msg, ...]:
    """Say the lateness points that stand against a player just marked present: the
    director who forgot /present for someone at the table undoes them with /cancel."""
    penalised = overrides.penalised_match(state, player.id)
    if penalised is None:
        return ()
    number, points = penalised
    return (
        msg(
            "present.lateness_stands",
            name=Name(player.name),
            match=number,
            points=points,
            command=Hint(f'/cancel {number} reason:"..."'),
        ),
    )


def _check_in(s: Session, state: TournamentState, player: Player) -> Msg:
    """Mark `player` present for the director; return what to say."""
    _placed(state, player)
    if state.entries[player.id].present_now():
        # Named: a forgiving match may have found someone else than the director meant.
        raise Refused("player_already_present", name=player.name)
    attendance.check_in(state, player.id, s.now, director=True)
    s.log("present", player=player.name)
    return msg("present.done", name=Name(player.name))


async def away(s: Session, a: Args) -> Reply:
    """Mark a player away: lateness runs for their matches due meanwhile (HGV-2.3.7)."""
    player, state = await named_entry(s, a)
    _placed(state, player)
    attendance.mark_away(state, player.id, s.now)
    s.log("away", player=player.name, reason=a.text("reason") or "")
    return say("away.done", name=Name(player.name))


def _late_in(state: TournamentState, player: PlayerId, now: datetime) -> int | None:
    """Return the number of the match `player` is late for now, if any (HGV-2.3.1)."""
    entry = state.entries.get(player)
    if entry is None or entry.status is not EntryStatus.ACTIVE or entry.present_now():
        return None
    return next((m.number for m in state.matches_of(player) if due.late_at(state, m, now)), None)


def _placed(state: TournamentState, player: Player) -> None:
    """Refuse, to the director, a player whose entry is not active, with what undoes it
    (the core's refusal speaks to the player: "your entry")."""
    entry = state.entries[player.id]
    if entry.status is EntryStatus.ACTIVE:
        return
    if player.id in roster.waiting_for_draw(state):
        raise Refused("waiting_for_draw", name=player.name)
    walk_in = state.preset.entry.walk_ins and not roster.has_results(state)
    if walk_in and player.id in roster.left_out(state):
        # Came after all: a walk-in, as one who never entered (/reinstate would bring
        # them back undrawn).
        example = Hint(f"/addplayer {as_typed(player.name)}")
        raise Refused("left_out_walk_in", name=player.name, example=example)
    status = msg(f"entry.{entry.status.value}")
    raise Refused("player_entry_not_active", name=player.name, status=status)


async def forfeit(s: Session, a: Args) -> Reply:
    """Give a player's current match away by forfeit; `all` for one who left (HGV-2.3.5)."""
    reason = a.text("reason") or ""
    player, state = await named_entry(s, a)
    if a.choice("all") == "all":
        s.events.extend(attendance.leave(state, player.id, s.now, reason="left"))
    else:
        number = a.match("match")
        match = state.matches.get(number) if number is not None else None
        if number is not None and (match is None or not match.involves(player.id)):
            raise Refused("not_their_match", match=number, name=player.name)
        if match is None and attendance.current_match(state, player.id) is None:
            # Said of the player named, to the director: not "you have no match".
            raise Refused("forfeit_no_open_match", name=player.name, tournament=state.name)
        s.events.extend(attendance.director_forfeit(state, player.id, s.now, match=match))
    s.log("forfeit", player=player.name, reason=reason)
    # `all` is a departure: the club hears the suspension it carries, not only a forfeit.
    if a.choice("all") == "all":
        return say("forfeit.all_done", name=Name(player.name))
    done = msg("forfeit.done", name=Name(player.name))
    if not state.entries[player.id].present_at(s.now):
        return Reply((done,))
    # A player at the venue given a match away has most often left it ("se fue"): the
    # one word that records that and its suspension (HGV-2.3.5) is said beside it.
    left = msg("forfeit.if_left", name=Name(player.name), as_typed=as_typed(player.name))
    return Reply((done, left))


async def excuse(s: Session, a: Args) -> Reply:
    """Excuse a no-show who gave notice: the suspension ends (CLUB-NO-SHOW)."""
    reason = a.text("reason") or ""
    player = named_player(a)
    state = await s.maybe_tournament()
    excused = state is not None and attendance.excuse(state, player.id)
    records = sanctions.excusable(await s.uow.sanctions.for_club(s.club.id), player.id)
    if not excused and not records:
        late = None if state is None else _late_in(state, player.id, s.now)
        if late is not None:
            # Not a no-show (yet): what a director can do about lateness is another command.
            raise Refused(
                "excuse_late", name=player.name, match=late, as_typed=as_typed(player.name)
            )
        penalised = None if state is None else overrides.penalised_match(state, player.id)
        if penalised is not None:
            # Arrived late: the points stand, and cancelling them is another command.
            number, points = penalised
            raise Refused("excuse_penalised", name=player.name, match=number, points=points)
        raise Refused("nothing_to_excuse", name=player.name)
    for record in records:
        sanctions.end(record, s.now, how="excused", note=reason)
        await s.uow.sanctions.save(record)
    s.log("excuse", player=player.name, reason=reason)
    return say("excuse.done", name=Name(player.name))


async def sanction(s: Session, a: Args) -> Reply:
    """Suspend a player from the club's next tournament, with a reason."""
    reason = a.text("reason") or ""
    player = named_player(a)
    state = await s.maybe_tournament()
    barred = await s.next_tournament(state.start if state is not None else s.now)
    known = await s.uow.sanctions.for_club(s.club.id)
    if sanctions.suspension_for(known, player.id, barred.id if barred else None) is not None:
        # Typed twice (a reason added the second time): one suspension, not two to serve.
        if barred is None:
            raise Refused("already_suspended_next", name=player.name)
        raise Refused("already_suspended", name=player.name, tournament=barred.name)
    # Given before a tournament is drawn, it bars the one after: the player plays this one
    # and is told so, not "the next tournament" while entered in it.
    after = None
    if state is not None and state.status is TournamentStatus.REGISTRATION and barred is None:
        after = state.name
    record = sanctions.Sanction(
        id=0,
        player=player.id,
        reason="director",
        origin=state.id if state else None,
        applies_to=barred.id if barred is not None else None,
        created_at=s.now,
        note=reason,
    )
    await s.uow.sanctions.add(s.club.id, record)
    s.log("sanction", player=player.name, reason=reason)
    said = sanction_reason("reason", "director", reason)
    s.notify(Reply((suspension(said, barred, after=after),)), player=player.id)
    if after is not None:
        return say("sanction.done_after", name=Name(player.name), tournament=Name(after))
    return say("sanction.done", name=Name(player.name))


async def lift(s: Session, a: Args) -> Reply:
    """Lift a player's active sanctions, with a reason."""
    reason = a.text("reason") or ""
    player = named_player(a)
    if not await _end_sanctions(s, player.id, how="lifted", note=reason):
        raise Refused("no_active_sanction", name=player.name)
    s.log("lift", player=player.name, reason=reason)
    return say("lift.done", name=Name(player.name))


async def approve(s: Session, a: Args) -> Reply:
    """Approve players as club members, once (HGV-1.4): /approve alice bob, /approve all."""
    state = await s.maybe_tournament()
    if a.choice("all"):
        waiting = attendance.waiting_for_approval(state) if state is not None else []
        known = await s.uow.players.many(waiting)
        players = [known[p] for p in waiting if p in known]
        if not players:
            raise Refused("nobody_waiting")
    else:
        players = []
        for found in a.players("player"):
            if found.id not in {q.id for q in players}:
                players.append(found)
        if not players:
            raise Refused("player_name_required", usage="/approve all · /approve alice bob")
    approved: list[Player] = []
    already: list[Player] = []
    for player in players:
        admitted = attendance.admit_member(state, player.id)
        if player.member and not admitted:
            already.append(player)
            continue
        if not player.member:
            player.member = True
            await s.uow.players.save(player)
        approved.append(player)
        s.log("approve", player=player.name)
        # Membership is once per player: the entries waiting in the club's other
        # tournaments (next month's, opened already) are approved with it.
        await _admit_elsewhere(s, state, player)
        entered = Name(state.name) if admitted and state is not None else None
        you = (
            msg("approve.you_entered", club=Name(s.club.name), tournament=entered)
            if entered is not None
            else msg("approve.you", club=Name(s.club.name))
        )
        s.notify(Reply((you,)), player=player.id)
    parts: list[Msg] = []
    if approved:
        parts.append(
            msg(
                "approve.done",
                count=len(approved),
                players=Name(", ".join(q.name for q in approved)),
            )
        )
    if already:
        parts.append(
            msg(
                "approve.already",
                count=len(already),
                players=Name(", ".join(q.name for q in already)),
            )
        )
    return Reply(tuple(parts))


async def _admit_elsewhere(s: Session, state: TournamentState | None, player: Player) -> None:
    """Approve a new member's waiting entries in the club's other tournaments (HGV-1.4)."""
    for tournament_id in await s.uow.tournaments.of_player(player.id, active=True):
        if state is not None and tournament_id == state.id:
            continue
        other = await s.uow.tournaments.get(tournament_id, for_update=True)
        if other is not None and attendance.admit_member(other, player.id):
            await s.uow.tournaments.save(other)


async def pause(s: Session, a: Args) -> Reply:
    """Stop a match's lateness clock (CLUB-BOTH-ABSENT)."""
    reason = a.text("reason") or ""
    state, number = await numbered(s, a)
    overrides.pause(state, number, s.now)
    s.log("pause", match=number, reason=reason)
    return say("pause.done", match=number)


async def resume(s: Session, a: Args) -> Reply:
    """Let a paused lateness clock run again."""
    state, number = await numbered(s, a)
    overrides.resume(state, number, s.now)
    s.log("resume", match=number)
    return say("resume.done", match=number)


async def cancel(s: Session, a: Args) -> Reply:
    """Cancel the lateness points of a match (CLUB-BOTH-ABSENT)."""
    reason = a.text("reason") or ""
    state, number = await numbered(s, a)
    cancelled = overrides.cancel_penalties(state, number)
    s.log("cancel_penalties", match=number, points=sum(c.points for c in cancelled), reason=reason)
    return say("cancel.done", match=number, points=sum(c.points for c in cancelled))


async def _end_sanctions(
    s: Session, player: int, *, how: str, note: str, only_reason: str | None = None
) -> bool:
    ended = False
    for record in await s.uow.sanctions.for_club(s.club.id):
        if (
            record.player == player
            and record.active
            and (only_reason is None or record.reason == only_reason)
        ):
            sanctions.end(record, s.now, how=how, note=note)
            await s.uow.sanctions.save(record)
            ended = True
    return ended
