"""What players do before they play: register, confirm, withdraw, check in."""

from __future__ import annotations

from commands import arguments, claims, entering, members, views
from commands import names as naming
from commands.params import Args, as_typed
from commands.picking import entered_elsewhere
from commands.replies import Button, Hint, Msg, Name, Reply, When, msg, say
from commands.resolver import fold
from commands.session import Session
from tournament import attendance, folding, roster, sanctions
from tournament import club as club_rules
from tournament.club import Player
from tournament.model import EntryStatus, Refused, TournamentStatus
from tournament.state import TournamentState


async def register(s: Session, a: Args) -> Reply:
    """Join the club, and the tournament open for entries if there is one."""
    born = arguments.born_by(a.date("born"), s.now.date())
    wanted = (a.text("name") or s.inv.user_name).strip()
    if not wanted:
        raise Refused("name_required")
    name_said: Msg | None = None
    # Linked or made now (a code is checked, and spent, even by a known player).
    joined = s.player is None or a.text("claim") is not None
    player = s.player
    if player is None or joined:
        player = s.player = await _claim_or_create(s, wanted, a.text("claim"))
        if a.text("claim") is None:
            name_said = await _spelled_like_a_member(s, player)
    elif a.text("name") is not None:
        name_said = await _recapitalise(s, player, wanted) or await _named_other(s, player, wanted)
    if born is not None and player.born != born:
        player.born = born
        await s.uow.players.save(player)
    await entering.open_for_entries(s, entering=True)
    state = await s.maybe_tournament()
    if a.text("claim") is not None and state is not None and attendance.entered(state, player.id):
        # The member a director entered claims their account: being entered is why they
        # came, not a refusal ("you registered already" undid the claim it answered).
        return say(
            "register.claimed_entered",
            name=Name(player.name),
            tournament=Name(state.name),
            start=When(state.start, "datetime"),
        )
    if state is not None and born is not None and state.status is not TournamentStatus.FINISHED:
        entered = state.entries.get(player.id)
        if entered is not None and attendance.entered(state, player.id) and entered.born != born:
            # Entered already, the date given now (the youngest and veteran prizes read
            # the entry's): "you are entered already" undid the date it answered.
            entered.born = born
            s.log("register_born", player=player.name, born=born.isoformat())
            return say("register.born_saved", name=Name(player.name), tournament=Name(state.name))
    if state is None or state.status is not TournamentStatus.REGISTRATION:
        # A member already ("you are now a player" read as if they had been forgotten).
        key = "register.club_only" if joined else "register.none_open"
        club_only = msg(key, club=Name(s.club.name), name=Name(player.name))
        late = () if state is None else _after_the_draw(state, player)
        return Reply((*(() if name_said is None else (name_said,)), club_only, *late))
    if name_said is not None and attendance.entered(state, player.id):
        return Reply((name_said,))  # already entered: the name was what they came about
    suspension = sanctions.suspension_for(
        await s.uow.sanctions.for_club(s.club.id), player.id, state.id
    )
    if suspension is not None:
        # Said in the club's chat as often as privately: it names whom it is about.
        said = msg("refused.suspended_player", name=Name(player.name), tournament=state.name)
        if joined:
            # The account this command linked (or the player it made) stays: the reply
            # points to /me for the reason, and /me must know who is asking.
            return Reply((said,))
        raise Refused("suspended_player", name=player.name, tournament=state.name)
    entry = attendance.register(
        state,
        player.id,
        s.now,
        born=player.born,
        is_member=player.member,
        suspended=suspension is not None,
        novice=player.novice,
        night_passed=s.night_passed(state),
    )
    s.log("register", player=player.name)
    parts: list[Msg] = [] if name_said is None else [name_said]
    parts += [
        msg(
            "register.done",
            name=Name(player.name),
            tournament=Name(state.name),
            start=When(state.start, "datetime"),
        )
    ]
    if not entry.approved:
        parts.append(msg("register.needs_approval", name=Name(player.name)))
    elif attendance.checkin_open(state, s.now):
        parts.append(msg("register.checkin_open"))
    return Reply(tuple(parts), (Button(msg("button.confirm"), "/confirm"),))


async def _recapitalise(s: Session, player: Player, typed: str) -> Msg | None:
    """Take a member's own name typed again with other capitals or spacing ("mihai
    ionescu" -> "Mihai Ionescu") as the way they want it shown; any other name is the
    director's to change (/player rename)."""
    wanted = naming.clean(typed, what="name")
    if wanted == player.name or not folding.same(wanted, player.name):
        return None
    return await members.rename(s, player, wanted)


async def _named_other(s: Session, player: Player, typed: str) -> Msg | None:
    """Say whose name a member typed when it is not their own: another member's (a
    director joins the two) or a new one (a director renames). Either way they stay who
    they are: "Ya te inscribiste" alone left "rocio" not knowing her imported points
    were "Rocío Pérez"'s."""
    wanted = naming.clean(typed, what="name")
    if folding.same(wanted, player.name):
        return None
    others = [
        p
        for p in await s.uow.players.all(s.club.id)
        if p.id != player.id and fold(p.name) == fold(wanted)
    ]
    if others:
        other = others[0].name
        command = f'/player merge "{player.name}" into:"{other}"'
        return msg(
            "register.name_is_other",
            name=Name(player.name),
            other=Name(other),
            command=Hint(command),
        )
    command = f'/player rename "{player.name}" to:"{wanted}"'
    return msg("register.name_kept", name=Name(player.name), command=Hint(command))


async def _spelled_like_a_member(s: Session, player: Player) -> Msg | None:
    """Say the member a newcomer's name is a letter from ("Jan Kowalsky" beside "Jan
    Kowalski", entered by a director): a typo, or a namesake; a director joins the two
    if it is the same person (a second player would split one person's points)."""
    others = [
        p.name
        for p in await s.uow.players.all(s.club.id)
        if p.id != player.id and naming.spelled_alike(player.name, p.name)
    ]
    if not others:
        return None
    command = f"/player merge {as_typed(player.name)} into:{as_typed(others[0])}"
    return msg(
        "register.name_is_other",
        name=Name(player.name),
        other=Name(others[0]),
        command=Hint(command),
    )


def _after_the_draw(state: TournamentState, player: Player) -> tuple[Msg, ...]:
    """Say what a /register after the draw can still lead to: a player in the draw is
    entered already; a newcomer can be entered by a director until the first result."""
    if state.status not in (TournamentStatus.GROUPS, TournamentStatus.KNOCKOUT):
        return ()
    if attendance.entered(state, player.id):
        raise Refused("already_registered", tournament=state.name)
    if not state.preset.entry.walk_ins or roster.has_results(state):
        return ()
    example = Hint(f"/addplayer {as_typed(player.name)}")
    return (msg("register.walk_in_ask", tournament=Name(state.name), example=example),)


async def _claim_or_create(s: Session, wanted: str, code: str | None) -> Player:
    if code is not None:
        return await claims.take(s, code)  # the code says who; it never creates a player
    await s.uow.players.lock_names(s.club.id)  # the look-alike check and the insert: one step
    # Every player, read once under the lock: the same name (its key, as by_name matches)
    # and the look-alikes below are both found in it.
    everyone = await s.uow.players.all(s.club.id)
    key = folding.key(wanted)
    found = [p for p in everyone if folding.key(p.name) == key]
    for candidate in found:
        if await s.uow.players.accounts(candidate.id):
            continue
        # A director entered this person without a chat account (or imported them):
        # typing the same name is not proof of being them, the director's code is.
        trusted = s.inv.platform in claims.NAME_IS_ACCOUNT
        if not trusted:
            raise Refused("claim_needs_code", name=candidate.name)
        await s.uow.players.add_account(candidate.id, s.inv.platform, s.inv.user)
        s.log("claim", player=candidate.name)
        member = club_rules.member_after_claim(
            candidate, by_director=s.is_director, name_is_proof=trusted
        )
        if member != candidate.member:
            candidate.member = member
            await s.uow.players.save(candidate)
        return candidate
    if found:
        raise Refused("name_taken", name=wanted)
    # "rocio" for the imported "Rocío", "Maria Jose" for "María José": the same member,
    # typed without accents. Not a second player: who it is, and how to claim it.
    # So is "Grzegorz B." for the ranked "Grzegorz Brzęczyszczykiewicz" (and the other way
    # round): a second, 0-point player would split one person's season in two.
    # And a chat account's first name alone ("andres") for a member entered whole
    # ("Andrés Bello"): asked, not made a second player beside them.
    twins = [
        p
        for p in everyone
        if fold(p.name) == fold(wanted)
        or naming.abbreviates(wanted, p.name)
        or naming.first_name_of(wanted, p.name)
    ]
    accounts = await s.uow.players.accounts_of([p.id for p in twins]) if twins else {}
    for twin in twins:
        if accounts.get(twin.id):
            continue
        if code is not None and await claims.redeem(s, twin, code):
            await s.uow.players.add_account(twin.id, s.inv.platform, s.inv.user)
            s.log("claim", player=twin.name)
            return twin
        state = await s.maybe_tournament()
        games = set(await s.uow.rankings.imported_games(s.club.id))
        games |= {state.preset.game} if state is not None else {"backgammon"}
        # The ranking they are known by: a draughts club may have imported as backgammon.
        points = max([await members.season_points(s, twin, game) for game in sorted(games)])
        if not points:  # entered by a director, never ranked: no "0 points" to be known by
            raise Refused("claim_member_listed", name=twin.name)
        raise Refused("claim_member_folded", name=twin.name, points=float(points))
    existing = [p.name for p in everyone]
    wanted = naming.clean_new_player(wanted, existing)
    member = club_rules.member_on_joining(by_director=s.is_director)
    player = await s.uow.players.add(s.club.id, wanted, s.now, member=member)
    await s.uow.players.add_account(player.id, s.inv.platform, s.inv.user)
    s.knows(player)  # the announcements name them: no query for a name just written
    return player


async def _entered_later(s: Session, state: TournamentState, player: Player) -> str | None:
    """Return the tournament taking entries that `player` is entered in besides `state`
    (next month's, opened on this one's night), or None."""
    return next((t.name for t in await entered_elsewhere(s, state, player)), None)


async def _suspended_not_entered(
    s: Session, state: TournamentState, player: Player, *, entered_too: bool = False
) -> None:
    """Refuse a player outside the tournament because of a suspension with that reason:
    "send /register" would only meet the suspension. `entered_too`: one entered before
    the suspension was decided as well (they are not drawn: HGV-2.3.6)."""
    if player.id in state.entries and not (
        entered_too and state.status is TournamentStatus.REGISTRATION
    ):
        return
    suspensions = await s.uow.sanctions.for_club(s.club.id)
    if sanctions.suspension_for(suspensions, player.id, state.id) is not None:
        raise Refused("suspended_player", name=player.name, tournament=state.name)


async def confirm(s: Session, a: Args) -> Reply:
    """Confirm attendance of the tournament you entered."""
    player = await s.me()
    # Tonight's tournament, drawn, takes no confirmations: next month's, opened on the
    # night, is the one a /confirm can be for (else "you confirmed already" misled).
    await entering.open_for_entries(s, entering=True)
    state = await s.tournament()
    await _suspended_not_entered(s, state, player, entered_too=True)
    attendance.confirm(state, player.id, s.now, night_passed=s.night_passed(state))
    # Said in the club's chat, among the others' confirmations: it names whose it is.
    done = msg(
        "confirm.done",
        name=Name(player.name),
        tournament=Name(state.name),
        start=When(state.start, "datetime"),
    )
    other = None if s.chosen else await _unconfirmed_elsewhere(s, state, player)
    if other is None:
        return Reply((done,))
    # Entered in the morning's and the evening's cup: one /confirm confirmed the first.
    command = f"/confirm tournament:{as_typed(other.name)}"
    also = msg(
        "confirm.also",
        tournament=Name(other.name),
        start=When(other.start, "datetime"),
        command=Hint(command),
    )
    button = Button(msg("button.confirm_tournament", tournament=Name(other.name)), command)
    return Reply((done, also), (button,))


async def _unconfirmed_elsewhere(
    s: Session, state: TournamentState, player: Player
) -> TournamentState | None:
    """Return another tournament of the same day taking entries where `player` is entered
    and has not confirmed yet, or None. Next month's waits for its own reminder."""
    for listed in await entered_elsewhere(s, state, player, same_day=True):
        other = await s.uow.tournaments.get(listed.id)
        if not other.entries[player.id].confirmed:  # an active entry (`of_player`)
            return other
    return None


async def withdraw(s: Session, a: Args) -> Reply:
    """Withdraw after a confirmation: free before the start (HGV-2.3.6); later it carries
    a suspension, and after the draw the remaining matches are lost (HGV-2.3.5)."""
    player = await s.me()
    await entering.open_for_entries(s)
    state = await s.tournament()
    await _suspended_not_entered(s, state, player)
    attendance.active_entry(state, player.id)
    # "done" (free), "late" (suspended, nothing to lose yet) or "left" (after the draw).
    how = "left" if state.status is not TournamentStatus.REGISTRATION else "done"
    passed = s.night_passed(state)  # never held: nothing is owed
    if how == "done" and attendance.withdrawal_sanction(
        state, player.id, s.now, night_passed=passed
    ):
        how = "late"
    if a.command != "withdraw confirm":
        asked = {"done": "withdraw.ask", "late": "withdraw.ask_late", "left": "withdraw.ask_left"}
        key = asked[how]
        if how == "done" and s.now >= state.start:
            key = "withdraw.ask_free"  # after the start, free all the same (unconfirmed)
        elif how == "left" and s.now < state.start:
            key = "withdraw.ask_left_drawn"  # not under way: "it has started" read wrong
        command = s.again("/withdraw confirm", state)
        ask = msg(key, tournament=Name(state.name), command=Hint(command))
        buttons = [Button(msg("button.withdraw"), command)]
        parts = [ask]
        later = await _entered_later(s, state, player) if how == "left" else None
        if later is not None:
            # On tonight's night, "I can't come next month" is the likelier meaning.
            instead = f"/withdraw tournament:{as_typed(later)}"
            parts.append(msg("withdraw.or_later", tournament=Name(later), command=Hint(instead)))
            buttons.append(Button(msg("button.withdraw_from", tournament=Name(later)), instead))
        return Reply(tuple(parts), tuple(buttons))
    s.events.extend(attendance.withdraw(state, player.id, s.now, night_passed=passed))
    s.log("withdraw", player=player.name)
    return say(f"withdraw.{how}", tournament=Name(state.name))


async def checkin(s: Session, a: Args) -> Reply:
    """Say you are at the venue (CLUB-PRESENCE)."""
    player = await s.me()
    await entering.open_for_entries(s)
    state = await s.tournament()
    await _suspended_not_entered(s, state, player, entered_too=True)
    _not_in_play(state, player)
    attendance.check_in(state, player.id, s.now, night_passed=s.night_passed(state))
    s.log("checkin", player=player.name)
    parts = [msg("checkin.done", name=Name(player.name))]
    upcoming = state.open_matches_of(player.id)
    if upcoming:
        names = await s.names(set(upcoming[0].players))
        parts.append(views.match_line(upcoming[0], names, state.preset.game))
    return Reply(tuple(parts))


def _not_in_play(state: TournamentState, player: Player) -> None:
    """Refuse, saying why and what can still be done, the check-in of a player out of the
    tournament: withdrawn before the draw, who enters again with /register; left out of
    the draw for neither confirming nor checking in (HGV-2.3.6), a walk-in still until the
    first result where the preset takes them; or withdrawn, a no-show or removed after
    it, which a director's /reinstate undoes."""
    entry = state.entries.get(player.id)
    if entry is None or entry.status is EntryStatus.ACTIVE:
        return
    if state.status is TournamentStatus.FINISHED:
        return  # over: the check-in's own refusal says so
    before_the_draw = state.status is TournamentStatus.REGISTRATION
    withdrawn = entry.status is EntryStatus.WITHDRAWN
    if withdrawn and before_the_draw:
        raise Refused("checkin_withdrawn", tournament=state.name, command="/register")
    if player.id in roster.waiting_for_draw(state):
        # Entered after the draw by a director: present already, placed by a new draw.
        raise Refused("checkin_waiting_for_draw", tournament=state.name, command="/redraw confirm")
    if before_the_draw or not withdrawn or entry.confirmed or entry.checked_in:
        # Removed, a no-show, or withdrawn after the draw: who can put them back, and how
        # (a director's line the player can show them).
        raise Refused(
            "checkin_entry_out",
            tournament=state.name,
            status=entry.status,
            command=f'/reinstate {as_typed(player.name)} reason:"..."',
        )
    if state.preset.entry.walk_ins and not roster.has_results(state):
        example = f"/addplayer {as_typed(player.name)}"
        raise Refused("checkin_not_drawn_walk_in", tournament=state.name, example=example)
    raise Refused("checkin_not_drawn", tournament=state.name)
