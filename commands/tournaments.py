"""A tournament's life: create, list, describe, call off, draw, and the director's glance."""

from __future__ import annotations

import secrets

from commands import arguments, lookups, views
from commands import names as naming
from commands.glance import overdue_others
from commands.params import Args, as_typed
from commands.replies import Button, Msg, Name, Param, Reply, When, announced, msg, say
from commands.session import Session
from tournament import (
    answers,
    attendance,
    calendar,
    progress,
    sanctions,
)
from tournament.events import GroupsDrawn
from tournament.model import EntryStatus, Refused
from tournament.preset import ALIASES, Preset, PresetError, load_preset
from tournament.state import TournamentState


async def tournament_info(s: Session, a: Args) -> Reply:
    """Show the tournament: preset, start, status and entries."""
    state = await s.tournament()
    waiting = [
        e for e in state.entries.values() if e.status is EntryStatus.ACTIVE and not e.approved
    ]
    return say(
        "tournament.info_waiting" if waiting else "tournament.info",
        tournament=Name(state.name),
        preset=state.preset.id,
        start=When(state.start, "datetime"),
        status=views.tournament_status(state, s.night_passed(state)),
        entries=len(state.playing()),
        waiting=len(waiting),
    )


async def tournament_new(s: Session, a: Args) -> Reply:
    """Create a tournament: /tournament new name:"..." preset:... start:"...", overrides."""
    name = (a.text("name") or "").strip()
    if not name:
        raise Refused("tournament_name_required")
    name = naming.clean(name, what="tournament")
    listed = await s.uow.tournaments.list(s.club.id)
    # A name may come back next season; two of one name at once could not be told apart.
    # Next month's tournament may be opened while this one is played (clubs open the
    # entries on the night).
    calendar.check_new_name(name, listed)
    start = arguments.start_time(a.text("start"), s.club.timezone, s.now)
    preset, tweaks = _preset(s, a)
    seed = a.integer("seed")
    state = TournamentState(
        id=0,
        name=name,
        preset=preset,
        start=start,
        seed=secrets.randbelow(10**6) if seed is None else seed,
        official=a.choice("official") != "no",
        created_at=s.now,
    )
    state = await s.uow.tournaments.add(s.club.id, state, tweaks)
    s.adopt(state)
    known = await s.uow.tournaments.list(s.club.id)
    origin_starts = {t.id: t.start for t in known}
    zone = s.club.timezone
    open_too = [
        t.name for t in known if t.id != state.id and calendar.taking_entries(t, s.now, zone)
    ]
    for sanction in sanctions.bind_pending(
        await s.uow.sanctions.for_club(s.club.id), state.id, start, origin_starts
    ):
        await s.uow.sanctions.save(sanction)
    s.log("tournament_new", name=name, preset=preset.id, start=start.isoformat(), overrides=tweaks)
    # One message: the club's chats hear of it, and in the chat where it was typed that
    # announcement is the reply (Session.finish does not post it twice).
    opened = say(
        "tournament.open" if state.official else "tournament.open_friendly",
        tournament=Name(name),
        start=When(start, "datetime"),
        preset=preset.id,
    )
    s.notify(opened)
    # One whose day passed undrawn takes no command of its own any more: it is named so
    # the director calls it off, not counted among those still open.
    parts = await overdue_others(s, known, state.id)
    if open_too:
        # A second tournament must not silently become the one every command acts on.
        meant = calendar.meant(known, s.now, zone).chosen
        this_one = meant is not None and meant.id == state.id
        parts.insert(
            0,
            msg(
                "tournament.others_open_later" if this_one else "tournament.others_open",
                others=Name(", ".join(open_too)),
                tournament=Name(name),
                example=Name(f'tournament:"{open_too[0] if this_one else name}"'),
            ),
        )
    return Reply(tuple(parts)) if parts else announced(opened)


def _preset(s: Session, a: Args) -> tuple[Preset, dict[str, str]]:
    """Return the preset a new tournament uses, with the options typed (and the club's
    approval setting) applied, and those overrides as stored."""
    preset_name = a.text("preset") or "hgv-backgammon"
    # Switches typed in the club's language: consolation:sí, third_place:nie, approval:da.
    tweaks = {key: _switch_word(value) for key, value in a.extra.items()}
    if s.club.approval is not None and "approval" not in tweaks:
        tweaks["approval"] = "true" if s.club.approval else "false"  # the club's setting
    try:
        return load_preset(preset_name, tweaks), tweaks
    except PresetError as error:
        if error.code == "group_size":
            # Said in the words the director typed (group_size:, qualifiers:).
            raise Refused(
                "groups_too_small", size=error.values["size"], qualifiers=error.value
            ) from None
        # Said with the option and value as typed (consolation:quizás), not the preset's.
        key = next((k for k in a.extra if ALIASES.get(k, k) == error.key), error.key)
        typed = a.extra.get(key, str(error.value))
        raise Refused("bad_preset", option=key, value=typed, allowed=_expected(error)) from None


async def tournament_list(s: Session, a: Args) -> Reply:
    """List the club's tournaments with their status and start."""
    listed = await s.uow.tournaments.list(s.club.id)
    if not listed:
        raise Refused("no_tournament")
    parts: list[Msg] = [msg("tournament.list_title", club=Name(s.club.name))]
    for row in listed:
        parts.append(
            msg(
                "tournament.list_line",
                tournament=Name(row.name),
                start=When(row.start, "datetime"),
                status=views.tournament_status(row, s.night_passed(row)),
            )
        )
    try:
        meant = await s.maybe_tournament()
    except Refused as asking:  # several tonight: the list says how to choose
        parts.append(msg(f"refused.{asking.code}", choices=str(asking.params["choices"])))
    else:
        if meant is not None:
            parts.append(msg("tournament.list_default", tournament=Name(meant.name)))
    return Reply(tuple(parts), private=True)


async def tournament_cancel(s: Session, a: Args) -> Reply:
    """Call off a tournament created by mistake or cancelled; it stays on record."""
    reason = a.text("reason") or ""
    state = await s.tournament()
    calendar.cancel(state)
    known = await s.uow.tournaments.list(s.club.id)
    later = [(t.id, t.start) for t in known if t.live and t.id != state.id]
    for record in await s.uow.sanctions.for_club(s.club.id):
        if record.active and record.applies_to == state.id:
            # A suspension for a tournament that will not be played moves to the next one.
            record.applies_to = sanctions.next_tournament(state.start, later)
            await s.uow.sanctions.save(record)
    s.log("tournament_cancel", name=state.name, reason=reason)
    told = Reply((msg("tournament.cancelled", tournament=Name(state.name), reason=Name(reason)),))
    s.notify(told)  # the club's other chats hear it too; this one only once
    yours = Reply((msg("entry.cancelled_you", tournament=Name(state.name), reason=Name(reason)),))
    _tell_entered(s, state, yours)
    return announced(told)


def _tell_entered(s: Session, state: TournamentState, reply: Reply) -> None:
    """Tell each player entered, in a direct message: the club's channel is not where a
    player on a phone looks for a change to a night they are coming to."""
    for player, entry in state.entries.items():
        if entry.status is EntryStatus.ACTIVE:
            s.notify(reply, player=player)


async def tournament_move(s: Session, a: Args) -> Reply:
    """Move a tournament not drawn yet to another start (the venue is taken, say)."""
    reason = a.text("reason") or ""
    state = await s.tournament()
    start = arguments.start_time(a.text("start"), s.club.timezone, s.now)
    if start == state.start:
        raise Refused("move_same_start", tournament=state.name, start=When(start, "datetime"))
    was = state.start
    other_day = calendar.move(state, start, s.club.timezone)
    s.log(
        "tournament_move",
        name=state.name,
        start=start.isoformat(),
        was=was.isoformat(),
        reason=reason,
    )
    said: dict[str, Param] = {
        "tournament": Name(state.name),
        "start": When(start, "datetime"),
        "was": When(was, "datetime"),
        "reason": Name(reason),
    }
    told = Reply((msg("tournament.moved_day" if other_day else "tournament.moved", **said),))
    s.notify(told)  # the club's other chats hear it too; this one only once
    if other_day:
        # Confirmations were for the old day: each player answers for the new one.
        named = f"tournament:{as_typed(state.name)}"
        buttons = (
            Button(msg("button.confirm"), f"/confirm {named}"),
            Button(msg("button.withdraw_from", tournament=Name(state.name)), f"/withdraw {named}"),
        )
        _tell_entered(s, state, Reply((msg("entry.moved_day_you", **said),), buttons))
    else:
        _tell_entered(s, state, Reply((msg("entry.moved_you", **said),)))
    return announced(told)


async def tournament_rename(s: Session, a: Args) -> Reply:
    """Give a tournament another name: /tournament rename "Copa de Marso" to:"Copa de Marzo"."""
    state = await s.tournament()
    name = naming.clean(a.text("to") or "", what="tournament")
    was = state.name
    calendar.rename(state, name, await s.uow.tournaments.list(s.club.id))
    s.log("tournament_rename", name=state.name, was=was)
    told = Reply((msg("tournament.renamed", was=Name(was), tournament=Name(state.name)),))
    s.notify(told)  # the club's other chats hear it too; this one only once
    return announced(told)


def _switch_word(value: str) -> str:
    """Return a yes or no typed in any club language as the preset reads it; a number
    (`group_length:1`) or another word stays as typed."""
    if value.strip().isdigit():
        return value
    found = answers.yes_no(value)
    return value if found is None else ("true" if found else "false")


def _expected(error: PresetError) -> Msg | str:
    """Say in the club's language what a preset option takes, from the error's code."""
    match error.code:
        case "whole_number":
            return msg("expect.whole_number")
        case "yes_no":
            return msg("expect.yes_no")
        case "number":
            return msg("expect.number")
        case "range":
            return msg(
                "expect.range", low=str(error.values["low"]), high=str(error.values["high"])
            )
        case "choice":
            return " | ".join(str(c) for c in _choices(error))
        case "key":
            return ", ".join(str(c) for c in _choices(error))
    return error.allowed


def _choices(error: PresetError) -> tuple[object, ...]:
    found = error.values.get("choices", ())
    return tuple(found) if isinstance(found, tuple | list) else ()


async def draw(s: Session, a: Args) -> Reply:
    """Draw the groups and publish them with the match schedule."""
    state = await s.tournament()
    waiting = attendance.blocking_the_draw(state)
    if waiting:
        names = await s.names(set(waiting))
        raise Refused(
            "draw_waiting_approval",
            count=len(waiting),
            players=", ".join(names[q] for q in waiting),
        )
    order = await lookups.seed_order(s)
    barred = await s.suspended_from(state)
    events = progress.draw(state, order, s.now, barred=barred)
    s.events.extend(events)
    s.log("draw", seed=state.seed, method=state.preset.groups.method)
    drawn = next(e for e in events if isinstance(e, GroupsDrawn))
    # The draw's announcement starts with this line: in the club's chat it is the reply.
    return announced(Reply((views.draw_line(state, drawn),)))
