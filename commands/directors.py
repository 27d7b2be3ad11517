"""What directors do; every act is logged with who and why."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from datetime import timedelta

from commands import announce, arguments, claims, lookups, views, web
from commands import names as naming
from commands.params import Args
from commands.replies import Button, Msg, Name, Reply, Table, When, msg, say, to_payload
from commands.resolver import Roster, fold
from commands.session import Session
from tournament import (
    attendance,
    calendar,
    corrections,
    overrides,
    progress,
    sanctions,
)
from tournament.club import Player
from tournament.events import GroupsDrawn
from tournament.model import EntryStatus, MatchStatus, Refused, TournamentStatus
from tournament.preset import ALIASES, PresetError, load_preset
from tournament.scoring import FinalScore, ScoreError, example_score, lot_word, named_first
from tournament.state import Match, TournamentState


async def club_link(s: Session, a: Args) -> Reply:
    """Give a one-time code that joins another chat to this club.

    128 random bits, stored only as a hash, single use, expiring; shown to the director
    privately and never in a group. Redeeming it only asks to join: a director of this
    club confirms with /club confirm before any announcement goes there.
    """
    code = secrets.token_urlsafe(16)
    expires = s.now + timedelta(minutes=s.config.link_code_minutes)
    await s.uow.clubs.add_link_code(
        s.club.id, code, expires, created_by=f"{s.inv.platform}:{s.inv.user}"
    )
    s.log("club_link", expires=expires.isoformat())
    return Reply(
        (msg("club.link_code", code=code, until=When(expires, "datetime")),),
        private=True,
        secret=True,
    )


async def club_confirm(s: Session, a: Args) -> Reply:
    """Let a chat that redeemed a link code receive the club's announcements."""
    link = a.integer("link")
    pending = await s.uow.clubs.pending_chats(s.club.id)
    if link is None or all(link != pending_id for pending_id, _, _ in pending):
        raise Refused(
            "no_pending_link",
            pending=", ".join(str(pending_id) for pending_id, _, _ in pending) or "-",
        )
    confirmed = await s.uow.clubs.confirm_chat(s.club.id, link)
    assert confirmed is not None
    platform, chat = confirmed
    s.log("club_link_confirmed", link=link, platform=platform, chat=chat)
    await s.uow.outbox.add(
        club_id=s.club.id,
        platform=platform,
        chat=chat,
        payload=to_payload(say("club.joined", club=Name(s.club.name))),
        created_at=s.now,
    )
    return say("club.link_confirmed", link=link, club=Name(s.club.name))


async def director_list(s: Session, a: Args) -> Reply:
    """Show who has director rights given by /director add (besides chat admins)."""
    stored = await s.uow.clubs.directors(s.club.id)
    names = await _account_names(s, stored)
    return say("director.list", names=", ".join(names) or "-")


async def _exactly(s: Session, a: Args, verb: str) -> Player | Reply:
    """Return the player a rights-changing command names by their exact name (or chat
    handle); a name matched only by a beginning or a near miss asks first, with the
    exact command to type (or press)."""
    player = a.player()
    assert player is not None  # required by the declaration
    typed = a.typed.get("player")
    roster = await Roster.of(s)
    names = next((k.names for k in roster.known if k.player.id == player.id), ())
    if not isinstance(typed, str) or fold(typed) in names:
        return player
    command = f'/director {verb} "{player.name}"'
    ask = msg("director.exact_name", name=Name(player.name), typed=Name(typed), command=command)
    if '"' in player.name:
        return Reply((ask,))
    return Reply((ask,), (Button(msg("button.yes_name", name=Name(player.name)), command),))


async def director_add(s: Session, a: Args) -> Reply:
    """Give a player director rights in this club, on every chat account they have."""
    player = await _exactly(s, a, "add")
    if isinstance(player, Reply):
        return player
    accounts = await s.uow.players.accounts(player.id)
    if not accounts:
        raise Refused("director_needs_account", name=player.name)
    for platform, external in accounts:
        await s.uow.clubs.add_director(s.club.id, platform, external)
    s.log("director_add", player=player.name, accounts=[f"{p}:{e}" for p, e in accounts])
    return say("director.added", name=Name(player.name))


async def director_remove(s: Session, a: Args) -> Reply:
    """Take the director rights /director add gave (chat admins keep theirs)."""
    player = await _exactly(s, a, "remove")
    if isinstance(player, Reply):
        return player
    accounts = await s.uow.players.accounts(player.id)
    removed = [
        f"{platform}:{external}"
        for platform, external in accounts
        if await s.uow.clubs.remove_director(s.club.id, platform, external)
    ]
    if not removed:
        raise Refused("not_a_stored_director", name=player.name)
    s.log("director_remove", player=player.name, accounts=removed)
    return say("director.removed", name=Name(player.name))


async def director_claim(s: Session, a: Args) -> Reply:
    """Give a one-time code with which a person takes over a player entered without a
    chat account (shown privately: whoever holds it becomes that player)."""
    player = await _exactly(s, a, "claim")
    if isinstance(player, Reply):
        return player
    if await s.uow.players.accounts(player.id):
        raise Refused("already_claimed", name=player.name)
    code, expires = await claims.issue(s, player)
    s.log("claim_code", player=player.name, expires=expires.isoformat())
    return Reply(
        (
            msg(
                "director.claim_code",
                name=Name(player.name),
                code=code,
                until=When(expires, "datetime"),
            ),
        ),
        private=True,
        secret=True,
    )


async def _account_names(s: Session, accounts: list[tuple[str, str]]) -> list[str]:
    out = []
    for platform, external in accounts:
        player = await s.uow.players.by_account(s.club.id, platform, external)
        out.append(player.name if player is not None else f"{platform}:{external}")
    return sorted(set(out))


async def club(s: Session, a: Args) -> Reply:
    """Set the club's name, time zone, language and whether tables go out as pictures."""
    changed = False
    if (name := a.text("name")) is not None:
        s.club.name, changed = naming.clean(name, what="club"), True
    if (zone := a.text("timezone")) is not None:
        s.club.timezone, changed = arguments.time_zone(zone), True
    if (language := a.choice("language")) is not None:
        s.club.language, changed = language, True
    pictures = a.choice("pictures")
    if pictures is not None:
        s.club.pictures, changed = pictures == "yes", True
    approval = a.choice("approval")
    if approval is not None:
        # The club's say on approving members (HGV-1.4) applies to tournaments created
        # from now on; "preset" lets each preset decide again.
        s.club.approval, changed = {"yes": True, "no": False}.get(approval), True
    pages = a.choice("web")
    if changed:
        await s.uow.clubs.save(s.club)
        s.log(
            "club",
            name=s.club.name,
            timezone=s.club.timezone,
            language=s.club.language,
            pictures=s.club.pictures,
        )
    info = msg(
        "club.info", name=Name(s.club.name), timezone=s.club.timezone, language=s.club.language
    )
    parts = [info]
    if pictures is not None:
        parts.append(msg("club.pictures_on" if s.club.pictures else "club.pictures_off"))
    if approval is not None:
        setting = {True: "on", False: "off", None: "preset"}[s.club.approval]
        parts.append(msg(f"club.approval_{setting}"))
    if pages is not None:
        parts.append(await web.switch(s, pages == "on"))
    return Reply(tuple(parts))


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
        status=msg(f"tstatus.{state.status.value}"),
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
    preset_name = a.text("preset") or "hgv-backgammon"
    start = arguments.start_time(a.text("start"), s.club.timezone, s.now)
    # Switches typed in the club's language: consolation:sí, third_place:nie, approval:da.
    tweaks = {key: _switch_word(value) for key, value in a.extra.items()}
    if s.club.approval is not None and "approval" not in tweaks:
        tweaks["approval"] = "true" if s.club.approval else "false"  # the club's setting
    try:
        preset = load_preset(preset_name, tweaks)
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
    open_too = [
        t.name for t in known if t.status is TournamentStatus.REGISTRATION and t.id != state.id
    ]
    for sanction in sanctions.bind_pending(
        await s.uow.sanctions.for_club(s.club.id), state.id, start, origin_starts
    ):
        await s.uow.sanctions.save(sanction)
    s.log("tournament_new", name=name, preset=preset.id, start=start.isoformat(), overrides=tweaks)
    # One message: the club's chats hear of it, and in the chat where it was typed that
    # announcement is the reply (Session.finish does not post it twice).
    opened = say(
        "tournament.open", tournament=Name(name), start=When(start, "datetime"), preset=preset.id
    )
    s.notify(opened)
    if not open_too:
        return opened
    # A second tournament must not silently become the one every command acts on.
    return Reply(
        (
            msg(
                "tournament.others_open",
                others=Name(", ".join(open_too)),
                example=Name(f'tournament:"{name}"'),
            ),
        )
    )


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
                status=msg(f"tstatus.{row.status.value}"),
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
    return told


def _switch_word(value: str) -> str:
    """Return a yes or no typed in any club language as the preset reads it; a number
    (`group_length:1`) or another word stays as typed."""
    if value.strip().isdigit():
        return value
    found = arguments.yes_no_word(value)
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
    events = progress.draw(state, order, s.now)
    s.events.extend(events)
    s.log("draw", seed=state.seed, method=state.preset.groups.method)
    drawn = next(e for e in events if isinstance(e, GroupsDrawn))
    # The draw's announcement starts with this line: in the club's chat it is the reply.
    return say(
        "draw.done",
        groups=drawn.groups,
        matches=drawn.matches,
        seed=drawn.seed,
        fingerprint=state.draw.fingerprint if state.draw else "",
    )


async def result(s: Session, a: Args) -> Reply:
    """Set or correct a result at any time: /result alice 3-1 bob, /result 12 3-1, /result 12 void.

    A result for a match still open is final at once (HGV-4.8). A change to a final or
    void match is a correction: everything that follows is derived again (standings,
    pairings not yet played, placements, ranking points) and announced once; a played
    pairing that would change is listed first, for the director to confirm.
    """
    state = await s.tournament()
    found = a.scores("score")
    first, second = a.player("player"), a.player("opponent")
    number = a.match("match")
    if number is not None:
        match = state.matches.get(number)
        if match is None:
            raise await _no_such_match(s, state, number, a)
        named = [p for p in (first, second) if p is not None]
        if not all(match.involves(p.id) for p in named):
            names = await s.names(set(match.players))
            raise Refused(
                "result_not_their_match",
                match=number,
                names=Name(" / ".join(p.name for p in named)),
                white=views.name(names, match.white),
                black=views.name(names, match.black),
            )
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
    change: corrections.Change
    if a.choice("void"):
        if found:
            raise Refused("bad_result_args", forms=_result_forms(state, match))
        change = "void"
    elif found:
        main, *phases = found
        change = named_first(
            main[0],
            main[1],
            first_is_white=white_first,
            phases=phases,
            lot=lot_word(a.choice("lot")),
        )
    else:
        raise Refused("bad_result_args", forms=_result_forms(state, match))
    try:
        return await _set_result(s, state, match, change, a)
    except ScoreError as error:
        # A director is shown /result for this match, white's score first, not /report.
        won, lost = example_score(state.preset.game, match.length)
        raise ScoreError(
            error.code,
            **{k: v for k, v in error.params.items() if k != "example"},
            example=f"/result {match.number} {won}-{lost}",
            _usage="score.usage_result",
        ) from None


async def _set_result(
    s: Session, state: TournamentState, match: Match, change: corrections.Change, a: Args
) -> Reply:
    reason = (a.text("reason") or "").strip()
    again = f"/result {match.number} " + (
        " ".join(f"{x}-{y}" for x, y in _white_first(change))
        if isinstance(change, FinalScore)
        else "void"
    )
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
                command=command,
            )
            button = Button(msg("button.confirm_correction"), f"{command} seen:{version}")
            said = (msg("correct.stale", match=match.number), ask) if stale else (ask,)
            return Reply(said, (button,), private=True)
        events = corrections.set_result(state, match.number, change, s.now, confirmed=confirmed)
        s.events.extend(events)
        s.log("result", match=match.number, white=change.white, black=change.black, reason=reason)
        names = await s.names(set(match.players))
        return Reply((views.match_line(match, names),))
    return await _correct(s, state, match, change, a, again)


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
    state, number = await _numbered(s, a)
    match = state.matches.get(number)
    if match is None:
        raise await _no_such_match(s, state, number, a)
    return await _correct(s, state, match, "reopen", a, f"/reopen {number}")


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
    undone = corrections.impact(state, match.number, change, s.now)
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
                    command=command,
                )
            )
        else:
            asks.append(msg("correct.go_ahead", command=command))
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
    )
    names = await s.names(set(state.entries))
    said = announce.notices(state, events, names)
    return said[0].reply if said else Reply((views.match_line(match, names),))


async def reinstate(s: Session, a: Args) -> Reply:
    """Undo a withdrawal, no-show or removal, with a reason; lift the suspension it caused."""
    reason = a.text("reason") or ""
    player, state = await _named_entry(s, a)
    events = attendance.reinstate(state, player.id, s.now)
    s.events.extend(events)
    lifted = sanctions.caused_by(await s.uow.sanctions.for_club(s.club.id), player.id, state.id)
    for record in lifted:
        sanctions.end(record, s.now, how="lifted", note=reason)
        await s.uow.sanctions.save(record)
    s.log("reinstate", player=player.name, reason=reason)
    # The club's announcement, and what the director needs besides: one message.
    said = announce.notices(state, events, await s.names(set(state.entries)))
    parts = [part for notice in said[:1] for part in notice.reply.parts]
    if lifted:
        parts.append(msg("reinstate.lifted", name=Name(player.name)))
    parts.append(msg("reinstate.checkin", name=Name(player.name)))
    return Reply(tuple(parts))


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
    seed = a.integer("seed")
    seed = secrets.randbelow(10**6) if seed is None else seed
    events = progress.settle_by_lot(state, group, seed, s.now)
    s.events.extend(events)
    s.log("lot", group=group, seed=seed)
    names = await s.names(set(state.entries))
    said = announce.notices(state, events[:1], names)
    return said[0].reply


async def present(s: Session, a: Args) -> Reply:
    """Mark a player present (check them in)."""
    player, state = await _named_entry(s, a)
    attendance.check_in(state, player.id, s.now, director=True)
    s.log("present", player=player.name)
    return say("present.done", name=Name(player.name))


async def away(s: Session, a: Args) -> Reply:
    """Mark a player away: lateness runs for their matches due meanwhile (HGV-2.3.7)."""
    player, state = await _named_entry(s, a)
    attendance.mark_away(state, player.id, s.now)
    s.log("away", player=player.name, reason=a.text("reason") or "")
    return say("away.done", name=Name(player.name))


async def forfeit(s: Session, a: Args) -> Reply:
    """Give a player's current match away by forfeit; `all` for one who left (HGV-2.3.5)."""
    reason = a.text("reason") or ""
    player, state = await _named_entry(s, a)
    if a.choice("all") == "all":
        s.events.extend(attendance.leave(state, player.id, s.now, reason="left"))
    else:
        number = a.match("match")
        match = state.matches.get(number) if number is not None else None
        if number is not None and (match is None or not match.involves(player.id)):
            raise Refused("not_their_match", match=number, name=player.name)
        s.events.extend(attendance.director_forfeit(state, player.id, s.now, match=match))
    s.log("forfeit", player=player.name, reason=reason)
    return say("forfeit.done", name=Name(player.name))


async def excuse(s: Session, a: Args) -> Reply:
    """Excuse a no-show who gave notice: the suspension ends (CLUB-NO-SHOW)."""
    reason = a.text("reason") or ""
    player = _named_player(a)
    state = await s.maybe_tournament()
    excused = state is not None and attendance.excuse(state, player.id)
    records = sanctions.excusable(await s.uow.sanctions.for_club(s.club.id), player.id)
    if not excused and not records:
        raise Refused("nothing_to_excuse", name=player.name)
    for record in records:
        sanctions.end(record, s.now, how="excused", note=reason)
        await s.uow.sanctions.save(record)
    s.log("excuse", player=player.name, reason=reason)
    return say("excuse.done", name=Name(player.name))


async def sanction(s: Session, a: Args) -> Reply:
    """Suspend a player from the club's next tournament, with a reason."""
    reason = a.text("reason") or ""
    player = _named_player(a)
    state = await s.maybe_tournament()
    known = await s.uow.tournaments.list(s.club.id)
    after = state.start if state is not None else s.now
    applies_to = sanctions.next_tournament(after, [(t.id, t.start) for t in known if t.live])
    record = sanctions.Sanction(
        id=0,
        player=player.id,
        reason="director",
        origin=state.id if state else None,
        applies_to=applies_to,
        created_at=s.now,
        note=reason,
    )
    await s.uow.sanctions.add(s.club.id, record)
    s.log("sanction", player=player.name, reason=reason)
    s.notify(Reply((msg("sanction.you", reason=msg("reason.director")),)), player=player.id)
    return say("sanction.done", name=Name(player.name))


async def lift(s: Session, a: Args) -> Reply:
    """Lift a player's active sanctions, with a reason."""
    reason = a.text("reason") or ""
    player = _named_player(a)
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


async def pause(s: Session, a: Args) -> Reply:
    """Stop a match's lateness clock (CLUB-BOTH-ABSENT)."""
    reason = a.text("reason") or ""
    state, number = await _numbered(s, a)
    overrides.pause(state, number, s.now)
    s.log("pause", match=number, reason=reason)
    return say("pause.done", match=number)


async def resume(s: Session, a: Args) -> Reply:
    """Let a paused lateness clock run again."""
    state, number = await _numbered(s, a)
    overrides.resume(state, number, s.now)
    s.log("resume", match=number)
    return say("resume.done", match=number)


async def cancel(s: Session, a: Args) -> Reply:
    """Cancel the lateness points of a match (CLUB-BOTH-ABSENT)."""
    reason = a.text("reason") or ""
    state, number = await _numbered(s, a)
    cancelled = overrides.cancel_penalties(state, number)
    s.log("cancel_penalties", match=number, points=sum(c.points for c in cancelled), reason=reason)
    return say("cancel.done", match=number, points=sum(c.points for c in cancelled))


async def status(s: Session, a: Args) -> Reply:
    """One glance for the director: late players, missing results, disputes, waiting."""
    state = await s.tournament()
    names = await s.names(set(state.entries))
    parts: list[Msg | Table] = [
        msg(
            "glance.title",
            tournament=Name(state.name),
            status=msg(f"tstatus.{state.status.value}"),
        )
    ]
    active = [e for e in state.entries.values() if e.status is EntryStatus.ACTIVE]
    waiting = [e for e in active if not e.approved]
    if waiting:
        parts.append(msg("glance.waiting", players=", ".join(names[e.player] for e in waiting)))
    if state.status is TournamentStatus.REGISTRATION:
        # Before the draw: who has not said they come, and who is not at the venue yet.
        unconfirmed = [e for e in active if e.approved and not e.confirmed and not e.checked_in]
        if unconfirmed:
            parts.append(
                msg(
                    "glance.unconfirmed",
                    count=len(unconfirmed),
                    players=Name(", ".join(names[e.player] for e in unconfirmed)),
                )
            )
        opens = attendance.checkin_opens(state)
        not_here = [e for e in active if e.approved and e.confirmed and not e.present_now()]
        if not_here and s.now >= opens:
            parts.append(
                msg(
                    "glance.not_here",
                    count=len(not_here),
                    players=Name(", ".join(names[e.player] for e in not_here)),
                    example=Name(names[not_here[0].player]),
                )
            )
        drawable = [e for e in active if e.approved and (e.confirmed or e.checked_in)]
        key = "glance.start_passed" if s.now >= state.start else "glance.ready_to_draw"
        if not drawable:
            key = "glance.nobody_to_draw"  # never "the draw can be made with 0 players"
        parts.append(msg(key, count=len(drawable), start=When(state.start)))
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
            absent = [q for q in match.players if not state.entries[q].present_at(s.now)]
            (late if absent else missing).append(match)
    for key, matches in (
        ("glance.late", late),
        ("glance.disputed", disputed),
        ("glance.pending", pending),
        ("glance.missing", missing),
    ):
        if matches:
            first = matches[0]
            # The hint sets the score reported, or one that ends a match of its length.
            won, lost = example_score(state.preset.game, first.length)
            parts.append(
                msg(
                    key,
                    count=len(matches),
                    match=first.number,
                    white=views.name(names, first.white),
                    black=views.name(names, first.black),
                    command=views.result_command(first, first.report, game=state.preset.game),
                    report=f"/report {won}-{lost}",
                )
            )
            parts.extend(views.match_line(m, names) for m in matches)
    held = sorted(progress.held(state))
    if held:
        # A reopened group match holds the knockout matches that depend on it.
        reopened = sorted(
            {m.group or "" for m in state.stage_matches(*progress.GROUP_STAGES) if not m.is_final}
        )
        parts.append(
            msg(
                "glance.held",
                count=len(held),
                matches=", ".join(map(str, held)),
                groups=", ".join(reopened),
            )
        )
    if len(parts) == 1:
        parts.append(msg("glance.all_clear"))
    return Reply(tuple(parts), private=True)


def _named_player(a: Args) -> Player:
    """Return the player the command names (the declaration requires one)."""
    player = a.player("player")
    if player is None:
        raise Refused("player_name_required", usage=a.usage)
    return player


def _entered(state: TournamentState, player: Player) -> None:
    if player.id not in state.entries:
        raise Refused("not_entered", name=player.name, tournament=state.name)


async def _named_entry(s: Session, a: Args) -> tuple[Player, TournamentState]:
    player = _named_player(a)
    state = await s.tournament()
    _entered(state, player)
    return player, state


async def _numbered(s: Session, a: Args) -> tuple[TournamentState, int]:
    number = a.match("match")
    if number is None:
        raise Refused("match_number_required", usage=a.usage)
    return await s.tournament(), number


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
