"""A club's members as directors keep them: entering members who have no chat account,
fixing names, merging a duplicate, taking a player out, drawing again.

A member is matched forgivingly (case, accents, a unique beginning), so `/addplayer
"jorge p."` enters the imported "Jorge P." instead of making a second, 0-point player.
Every act is logged with who did it.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from commands import arguments, entering, lookups, resolver, views
from commands import names as naming
from commands.params import Args, as_typed
from commands.parsing import QUOTES
from commands.replies import Button, Hint, Msg, Name, Reply, announced, msg, refused_line, say
from commands.resolver import Roster, fold
from commands.session import Session
from commands.words import CONFIRM_WORDS
from tournament import attendance, calendar, roster, sanctions
from tournament import ranking as ranking_rules
from tournament.club import Player
from tournament.events import GroupsDrawn
from tournament.model import EntryStatus, Refused, TournamentStatus
from tournament.state import TournamentState

# A tournament whose entries no longer change.
_OVER = (TournamentStatus.FINISHED, TournamentStatus.CANCELLED)


async def season_points(s: Session, player: Player, game: str) -> Decimal:
    """Return a member's points this season: imported ones plus official tournaments'."""
    records = ranking_rules.for_game(await s.uow.tournaments.records(s.club.id), game)
    year = await lookups.season_year(s)
    points = sum(
        (
            r.points.get(player.id, Decimal(0))
            for r in records
            if r.official and r.tournament_id in year
        ),
        Decimal(0),
    )
    imported = dict(await s.uow.rankings.imported(s.club.id, game, year=lookups.season_now(s)))
    return points + imported.get(player.id, Decimal(0))


def typed_names(a: Args, line: str = "") -> list[str]:
    """Return the names typed: each quoted one apart, unquoted words as they come.

    A quoted name is marked with a trailing space when it is one word (`"Bob" "Ann"`),
    so `split_names` keeps it apart as it does `"Ana P."`; `line` is the typed text."""
    value = a.values.get("name")
    if isinstance(value, str):
        return [value.strip()] if value.strip() else []
    if not isinstance(value, list):
        return []
    words = [str(v).strip() for v in value if str(v).strip()]
    return [f"{w} " if _quoted(w, line) else w for w in words]


def _quoted(word: str, line: str) -> bool:
    return any(f"{opening}{word}{closing}" in line for opening, closing in QUOTES.items())


def split_names(known: Roster, typed: list[str]) -> list[tuple[Player | None, str]]:
    """Read the typed names as members of the club (or new names).

    `"Ana P." "Jorge P."` are two names; unquoted words are one name when they are one
    member's or nobody's (`zofia kowalska`), several when each part is a member's
    (`ana jorge`). A name that could be several members is refused, saying whom.
    """
    out: list[tuple[Player | None, str]] = []
    for run in known.runs(typed):  # a comma or an "and" ends a name
        unquoted: list[str] = []
        for word in [*run, None]:
            if word and " " not in word:
                unquoted.append(word)
                continue
            if unquoted:
                out.extend(_unquoted(known, unquoted))
                unquoted = []
            if word:
                out.append(_one(known, word.strip()))  # quoted: one name
    return out


def _unquoted(known: Roster, words: list[str]) -> list[tuple[Player | None, str]]:
    whole = " ".join(words)
    if len(words) == 1 or len(known.candidates(whole)) == 1:
        return [_one(known, whole)]
    several: list[tuple[Player | None, str]] = []
    index = 0
    while index < len(words):
        for end in range(len(words), index, -1):
            part = known.candidates(" ".join(words[index:end]))
            if len(part) == 1:
                several.append((part[0], " ".join(words[index:end])))
                index = end
                break
        else:
            return [_one(known, whole)]  # not all members: one new name
    return several


def _one(known: Roster, text: str) -> tuple[Player | None, str]:
    found = known.candidates(text)
    if len(found) > 1:
        exact = [p for p in found if fold(p.name) == fold(text)]
        if len(exact) == 1:
            return exact[0], text
        known.one(text)  # refuses: "could be A, B"
    return (found[0] if found else None), text


async def addplayer(s: Session, a: Args) -> Reply:
    """Enter players who have no chat account; a member of the club is entered, never
    duplicated: /addplayer "Ana P." "Jorge P."."""
    typed = typed_names(a, s.inv.text)
    if not typed:
        raise Refused("name_required")
    born = arguments.born_by(a.date("born"), s.now.date())
    await s.uow.players.lock_names(s.club.id)  # the look-alike check and the insert: one step
    known = await Roster.of(s)
    await entering.open_for_entries(s, walk_ins=True)
    state = await s.maybe_tournament()
    parts: list[Msg] = []
    buttons: tuple[Button, ...] = ()
    entered: set[int] = set()
    # Every member's name, read under the lock with the roster: a new name is checked
    # against them and the names entered before it (read again for each, ten names
    # read the club ten times).
    existing = [k.player.name for k in known.known]
    split = split_names(known, typed)
    _one_or_several(split, s.inv.text)
    _no_word_for_a_name(split, typed)
    for member, text in split:
        if member is None:
            name = naming.clean_new_player(text, existing)
            member = await s.uow.players.add(s.club.id, name, s.now, born=born)
            existing.append(name)
            s.log("addplayer", player=name)
            new = True
        else:
            s.log("addplayer", player=member.name, member=True)
            new = False
        if member.id in entered:
            continue
        entered.add(member.id)
        if born is not None and member.born != born and not new:
            member.born = born  # /addplayer stefan born:1980-01-01: their birth date now
            await s.uow.players.save(member)
        try:
            said, redraw = await _enter(s, state, member, new=new)
        except Refused as refusal:
            if refusal.code in _CLOSED and state is not None:
                raise await _too_late(s, state, typed, refusal.code, born) from None
            if refusal.code in _ONE_OF_SEVERAL and len(split) > 1:
                # One of several: the others are entered, this one's line says why not.
                parts.append(refused_line(refusal))
                continue
            if refusal.code not in _AGE or state is None:
                raise
            # Said to the director, with the command that enters this player; a birth
            # date missing refuses the batch ("Nobody was entered"): it is typed again.
            raise Refused(
                _AGE[refusal.code],
                name=member.name,
                tournament=state.name,
                minimum_age=refusal.params.get("minimum_age", 0),
                example=as_typed(member.name),
            ) from None
        parts.append(said)
        if new:
            parts.extend(_same_surname(member.name, known))
        if redraw and state is not None:
            buttons = (Button(msg("button.redraw"), s.again("/redraw confirm", state)),)
    return Reply(tuple(parts), buttons)


def _one_or_several(split: list[tuple[Player | None, str]], line: str) -> None:
    """Ask before making one new player of unquoted lower-case words (/addplayer bob cruz
    dora): one player, as "Ana María López" is, or several; a name once made would
    stay in the club's list, and its beginning would match "bob" from then on."""
    for member, text in split:
        words = text.split()
        if member is not None or len(words) < 3 or _quoted(text, line):
            continue
        if any(w[:1].isupper() for w in words):
            continue
        several = " ".join(f'"{w}"' for w in words)
        raise Refused(
            "addplayer_one_or_several",
            name=text,
            one=f'/addplayer "{text}"',
            several=f"/addplayer {several}",
        )


def _no_word_for_a_name(split: list[tuple[Player | None, str]], typed: list[str]) -> None:
    """Refuse a new player named with a word of a command ("/addplayer "Jan Kowalsky"
    potwierdź" made a player called potwierdź): the line without it is offered."""
    for member, text in split:
        if member is None and fold(text) in _NOT_NAMES:
            names = [name for name in typed if name != text]
            line = f"/addplayer {as_typed(names)}" if names else "/addplayer NAME"
            raise Refused("addplayer_not_a_name", word=text, command=Hint(line))


# confirm, all and yes in the clubs' languages (folded): answers, not people; not a word
# that is a name too (Toti, Da, Si).
_NOT_NAMES = frozenset(
    fold(word)
    for word in (*CONFIRM_WORDS, "confirm", "all", "wszyscy", "todos", "toate", "yes", "tak", "sí")
)


def _same_surname(name: str, known: Roster) -> list[Msg]:
    """A new player beside a member of the same surname, or of a name spelled alike: a
    nickname (Zbyszek for Zbigniew) or a typo (Kowalsky) would make a twin whose points
    are apart; the merge that joins them."""
    for other in (k.player.name for k in known.known):
        if naming.same_surname(name, other) or naming.spelled_alike(name, other):
            return [
                msg(
                    "addplayer.same_surname",
                    name=Name(name),
                    other=Name(other),
                    command=Hint(f"/player merge {as_typed(name)} into:{as_typed(other)}"),
                )
            ]
    return []


# Tonight's tournament takes no more entries: it has results, or no walk-ins at all.
_CLOSED = frozenset({"walk_in_too_late", "walk_in_not_allowed"})


async def _too_late(
    s: Session, state: TournamentState, typed: list[str], code: str, born: date | None
) -> Refused:
    """Return the refusal of walk-ins to a tournament that takes none now (`code`): with
    the command that enters them (`born` as typed) in the one open for entries, when there
    is exactly one (next month's, opened on the night)."""
    listed = await s.uow.tournaments.list(s.club.id)
    open_ = calendar.open_for_entries(listed, s.now, s.club.timezone)
    if len(open_) != 1:
        return Refused(code, tournament=state.name)
    names = " ".join(as_typed(name) for name in typed)
    dated = "" if born is None else f" born:{born.isoformat()}"
    example = f"/addplayer {names}{dated} tournament:{as_typed(open_[0].name)}"
    return Refused(f"{code}_next", tournament=state.name, next=open_[0].name, example=example)


# Refusals of one player, not of the command: in a batch, a line beside the entered.
_ONE_OF_SEVERAL = frozenset({"addplayer_already", "addplayer_suspended"})

# The age rule (NAV-ENTRY) refused an entry a director made: say it to the director.
_AGE = {
    "birth_date_required": "addplayer_born_required",
    "too_young": "addplayer_too_young",
}


async def _enter(
    s: Session, state: TournamentState | None, player: Player, *, new: bool
) -> tuple[Msg, bool]:
    """Enter `player` in `state`; return what to say and whether a new draw is needed."""
    name = Name(player.name)
    if state is None or state.status in _OVER:
        return msg("addplayer.club_only" if new else "addplayer.known", name=name), False
    suspension = sanctions.suspension_for(
        await s.uow.sanctions.for_club(s.club.id), player.id, state.id
    )
    if suspension is not None:
        raise Refused("addplayer_suspended", name=player.name, tournament=state.name)
    if state.status is TournamentStatus.REGISTRATION:
        entry = state.entries.get(player.id)
        active = entry is not None and entry.status is EntryStatus.ACTIVE
        if entry is not None and active and entry.confirmed:
            raise Refused("addplayer_already", name=player.name, tournament=state.name)
        if not active:
            attendance.register(
                state,
                player.id,
                s.now,
                born=player.born,
                is_member=player.member,
                by_director=True,
                novice=player.novice,
            )
        state.entries[player.id].approved = True
        attendance.confirm(state, player.id, s.now)
        key = "addplayer.done" if new else "addplayer.member_done"
        return msg(key, name=name, tournament=Name(state.name)), False
    entry = roster.walk_in(state, player.id, s.now, born=player.born)
    s.log("walk_in", player=player.name)
    said = msg("addplayer.walk_in", name=name, tournament=Name(state.name))
    if entry.checked_in:
        # The director learns the walk-in counts as at the venue, and how to undo it.
        return msg("addplayer.walk_in_present", entered=said, name=name), True
    return said, True


async def player_usage(s: Session, a: Args) -> Reply:
    """Say what /player does: rename, merge, remove."""
    return say("player.usage")


def _pair(a: Args, key: str, *, usage: str) -> tuple[str, str]:
    """Return (player, `key` value) typed; `/player merge "Rocío 2" into "Rocío"`, the
    colon forgotten, is read as `into:"Rocío"`."""
    typed = " ".join((a.text("player") or "").split())
    other = (a.text(key) or "").strip()
    if not other:
        before, found, after = typed.rpartition(f" {key} ")
        if found and before.strip() and after.strip():
            typed, other = before.strip(), after.strip()
    typed = typed.strip().strip('"“”„«»')
    other = other.strip().strip('"“”„«»')
    if not typed or not other:
        raise Refused(usage)
    return typed, other


async def player_rename(s: Session, a: Args) -> Reply:
    """Fix a player's name everywhere: /player rename "zofia kowalska" to:"Zofia Kowalska"."""
    typed, to = _pair(a, "to", usage="rename_usage")
    await s.uow.players.lock_names(s.club.id)  # the look-alike check and the new name: one step
    player = await resolver.find_player(s, typed)
    wanted = naming.clean(to, what="name")
    if wanted == player.name:
        raise Refused("rename_same", name=player.name)
    others = [p.name for p in await s.uow.players.all(s.club.id) if p.id != player.id]
    twin = naming.look_alike(wanted, others)
    if twin is not None:
        same = fold(twin) == fold(wanted)
        raise Refused("rename_exists" if same else "rename_taken", name=wanted, other=twin)
    return Reply((await rename(s, player, wanted),))


async def rename(s: Session, player: Player, wanted: str) -> Msg:
    """Give `player` the name `wanted` (cleaned, checked by the caller), logged; return
    what to say of it."""
    before = player.name
    player.name = wanted
    await s.uow.players.save(player)
    s.log("player_rename", player=before, to=wanted)
    return msg("player.renamed", old=Name(before), name=Name(wanted))


async def player_merge(s: Session, a: Args) -> Reply:
    """Merge a duplicate into a member: /player merge "Rocío 2" into:"Rocío"; their
    entries, results, placements, points, sanctions and chat accounts carry over."""
    typed, into = _pair(a, "into", usage="merge_usage")
    old = await resolver.find_player(s, typed)
    new = await resolver.find_player(s, into)
    if old.id == new.id:
        raise Refused("merge_same", name=old.name)
    states = [
        await s.uow.tournaments.get(tid, for_update=True)
        for tid in await s.uow.tournaments.of_player(old.id)
    ]
    for state in states:
        if roster.both_drawn(state, old.id, new.id):
            raise Refused(
                "merge_both_entered", name=old.name, into=new.name, tournament=state.name
            )
    played = sum(1 for state in states if roster.has_played(state, old.id))
    for state in states:
        roster.merge_player(state, old.id, new.id)
        await s.uow.tournaments.save(state)
    await s.uow.players.merge(old.id, new.id)
    changed = False
    if old.member and not new.member:
        new.member, changed = True, True
    if new.born is None and old.born is not None:
        new.born, changed = old.born, True
    if changed:
        await s.uow.players.save(new)
    s.log("player_merge", player=old.name, into=new.name, tournaments=len(states))
    # A duplicate entered but not yet played carries an entry, not results.
    key = "player.merged" if 0 < played == len(states) else "player.merged_entries"
    return say(
        key, old=Name(old.name), name=Name(new.name), tournaments=len(states), played=played
    )


async def player_remove(s: Session, a: Args) -> Reply:
    """Take a player out of a tournament before its draw: /player remove alice."""
    player = _named(a, "player")
    state = await s.tournament()
    try:
        roster.remove(state, player.id, s.now)
    except Refused as refusal:
        if refusal.code not in ("remove_not_entered", "remove_already_out"):
            raise
        # Said of the player named, and one already out with the way back.
        command = f'/reinstate {as_typed(player.name)} reason:"..."'
        raise Refused(refusal.code, **refusal.params, name=player.name, command=command) from None
    s.log("player_remove", player=player.name, reason=a.text("reason") or "")
    return say("player.removed", name=Name(player.name), tournament=Name(state.name))


async def player_novice(s: Session, a: Args) -> Reply:
    """Put a player in the novice category, or take them out (HGV-NOVICE): their entries
    from now on, and their entry in the tournament at hand unless it is over, count for
    the novice ranking."""
    player = _named(a, "player")
    novice = a.choice("state") != "off"
    state = await s.maybe_tournament()
    if novice and state is not None and not state.preset.season.novice_category:
        # "Plays in the novice category from now on", then /ranking novice: "no novice
        # category". The club's rules (its tournament's preset) have none to enter.
        raise Refused("no_novice_category")
    entry = None if state is None or state.status in _OVER else state.entries.get(player.id)
    if player.novice == novice and (entry is None or entry.novice == novice):
        # Typed twice: said so, rather than "plays in the novice category from now on".
        raise Refused(
            "novice_already" if novice else "novice_not",
            name=player.name,
            as_typed=as_typed(player.name),
        )
    player.novice = novice
    await s.uow.players.save(player)
    parts = [msg("player.novice_on" if novice else "player.novice_off", name=Name(player.name))]
    if state is not None and entry is not None:
        entry.novice = novice
        parts.append(msg("player.novice_entry", tournament=Name(state.name)))
    s.log("player_novice", player=player.name, novice=novice)
    return Reply(tuple(parts))


async def redraw(s: Session, a: Args) -> Reply:
    """Draw the groups again, before the first result; asks for `confirm` first."""
    state = await s.tournament()
    if state.status is TournamentStatus.REGISTRATION or state.draw is None:
        raise Refused("redraw_not_drawn", tournament=state.name)
    if state.status is not TournamentStatus.GROUPS or roster.has_results(state):
        raise Refused("redraw_too_late", tournament=state.name)
    if a.choice("confirm") != "confirm":
        command = s.again("/redraw confirm", state)
        parts = [msg("redraw.ask", tournament=Name(state.name), command=Hint(command))]
        waiting = roster.waiting_for_draw(state)
        if waiting:
            names = await s.names(set(waiting))
            players = Name(", ".join(names[p] for p in waiting))
            parts.append(msg("redraw.walk_ins", players=players))
        return Reply(tuple(parts), (Button(msg("button.redraw"), command),))
    order = await lookups.seed_order(s)
    events = roster.redraw(state, order, s.now, barred=await s.suspended_from(state))
    s.events.extend(events)
    drawn = next(e for e in events if isinstance(e, GroupsDrawn))
    s.log("redraw", seed=drawn.seed)
    # As /draw: the announcement of the groups starts with this line, and is the reply.
    return announced(Reply((views.draw_line(state, drawn),)))


def _named(a: Args, key: str) -> Player:
    player = a.player(key)
    if player is None:
        raise Refused("player_name_required", usage=a.usage)
    return player
