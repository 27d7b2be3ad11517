"""What players do: register, confirm, withdraw, check in, report, accept, dispute."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

from commands import arguments, claims, entering, history, members, views
from commands import names as naming
from commands.params import Args, as_typed, lot_typed
from commands.picking import entered_elsewhere
from commands.replies import Button, Hint, Msg, Name, Reply, When, announced, msg, say
from commands.resolver import fold
from commands.session import Session
from tournament import attendance, folding, reports, roster, sanctions
from tournament import club as club_rules
from tournament.club import Player
from tournament.model import EntryStatus, MatchStatus, PlayerId, Refused, TournamentStatus
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
    attendance.confirm(state, player.id, s.now)
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
    if how == "done" and attendance.withdrawal_sanction(state, player.id, s.now):
        how = "late"
    if a.command != "withdraw confirm":
        asked = {"done": "withdraw.ask", "late": "withdraw.ask_late", "left": "withdraw.ask_left"}
        key = asked[how]
        if how == "done" and s.now >= state.start:
            key = "withdraw.ask_free"  # after the start, free all the same (unconfirmed)
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
    s.events.extend(attendance.withdraw(state, player.id, s.now))
    s.log("withdraw", player=player.name)
    return say(f"withdraw.{how}", tournament=Name(state.name))


async def checkin(s: Session, a: Args) -> Reply:
    """Say you are at the venue (CLUB-PRESENCE)."""
    player = await s.me()
    await entering.open_for_entries(s)
    state = await s.tournament()
    await _suspended_not_entered(s, state, player, entered_too=True)
    _not_in_play(state, player)
    attendance.check_in(state, player.id, s.now)
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
                converted = views.phase_in_points(found, phase, total, "/report", then=then)
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
            then = "".join(f" {x}-{y}" for x, y in found[1:]) + lot_typed(a)
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
            # /dispute again: say how it stands (a director decides), not "no report".
            names = await s.names(set(disputed[0].players))
            return Reply((views.match_line(disputed[0], names, state.preset.game),))
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
    if agree:
        s.events.extend(reports.accept(state, number, player.id, s.now))
    else:
        s.events.extend(reports.dispute(state, number, player.id, s.now))
    s.log("accept" if agree else "dispute", match=number)
    match = state.matches[number]
    names = await s.names(set(match.players))
    if agree:
        return announced(Reply((views.match_line(match, names, state.preset.game),)))
    # The club's announcement in the chat it hears it in; its own words elsewhere.
    return announced(
        Reply((views.disputed_line(match, names, by=player.id, game=state.preset.game),))
    )
