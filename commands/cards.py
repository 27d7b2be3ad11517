"""A player's card (/me): their entry, matches, lateness points, sanctions and how their
last tournament ended; a director's /me NAME reads anyone's."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal

from commands import notices, views
from commands.catalog import LANGUAGES
from commands.params import Args, as_typed
from commands.replies import Hint, Msg, Name, Param, Reply, Table, When, msg
from commands.session import Session
from tournament import calendar, placements, roster, sanctions
from tournament.club import Player
from tournament.model import EntryStatus, PlayerId, Refused, TournamentStatus
from tournament.state import TournamentState


async def me(s: Session, a: Args) -> Reply:
    """Show your entry, matches, lateness points and sanctions; a director, anyone's."""
    asked = a.player("player")
    if asked is not None and (s.player is None or asked.id != s.player.id):
        if not s.is_director:
            raise Refused("card_directors_only", command="/me")
        if a.choice("language") is not None:
            raise Refused("card_language_own", command=f"/me language:{a.choice('language')}")
        s.own_entry = False  # another player's card: not the director's own entry
        return await _card(s, asked, as_director=True)
    player = await s.me()
    if (language := a.choice("language")) is not None:
        return await _set_language(s, player, language)
    return await _card(s, player, as_director=False)


def _entry_line(state: TournamentState, player: PlayerId) -> Msg:
    """Return one line of a card: the player's entry in `state` and where it stands."""
    entry = state.entries[player]
    # Entered, but not drawn until a director approves the member (HGV-1.4).
    waiting = entry.status is EntryStatus.ACTIVE and not entry.approved
    if entry.status is not EntryStatus.ACTIVE:
        # Withdrawn, a no-show, removed: "confirmed: no; present: no" of a player who had
        # confirmed and checked in before leaving read as a mistake.
        # Left out by the draw is not a withdrawal of theirs ("withdrawn" read as one).
        ended = "left_out" if player in roster.left_out(state) else entry.status.value
        return msg("me.entry_ended", tournament=Name(state.name), status=msg(f"entry.{ended}"))
    if state.status is TournamentStatus.FINISHED:
        # Played: "confirmed: yes; present: yes" the morning after read as tonight's.
        return msg("me.entry_played", tournament=Name(state.name))
    return msg(
        "me.entry",
        tournament=Name(state.name),
        status=msg("entry.awaiting_approval" if waiting else f"entry.{entry.status.value}"),
        confirmed=msg("word.yes" if entry.confirmed else "word.no"),
        present=msg("word.yes" if entry.present_now() else "word.no"),
    )


async def _entries_to_come(
    s: Session, player: Player, shown: TournamentState | None
) -> list[TournamentState]:
    """Return the other tournaments taking entries that the player is entered in, soonest
    first: March's entry beside February's, which the card shows first."""
    others = [
        await s.uow.tournaments.get(tid)
        for tid in await s.uow.tournaments.of_player(player.id, active=True)
        if shown is None or tid != shown.id
    ]
    return sorted(
        (t for t in others if t.status is TournamentStatus.REGISTRATION), key=lambda t: t.start
    )


async def _card(s: Session, player: Player, *, as_director: bool) -> Reply:
    """Return a player's card: their own (`me` messages), or as a director reads it
    (`card` messages, which name them)."""
    key = "card" if as_director else "me"
    named: dict[str, Param] = {"name": Name(player.name)} if as_director else {}
    # What a director types to lift a suspension the card shows.
    lift = {"command": Hint(f'/lift {as_typed(player.name)} reason:"..."')} if as_director else {}
    reasons = "card.reason" if as_director else "reason"  # "... they" or "you ..."
    parts: list[Msg | Table] = [msg("me.player", name=Name(player.name))]
    open_now: tuple[str, ...] = ()
    known = await s.uow.tournaments.list(s.club.id)
    try:
        state = await s.maybe_tournament()
    except Refused as asking:
        if asking.code != "which_tournament" or s.chosen:
            raise
        # Several tonight, none of them the player's: the card needs none of them (it
        # lists the entries to come), rather than a question about tournaments; those
        # taking entries are offered. One of them the player's: which one, asked.
        state = None
        choices = asking.params.get("_choices", ())
        asked = {str(n) for n in choices} if isinstance(choices, tuple) else set()
        theirs = set(await s.uow.tournaments.of_player(player.id))
        among = [t for t in known if t.name in asked]
        if any(t.id in theirs for t in among):
            raise
        taking = TournamentStatus.REGISTRATION
        open_now = tuple(t.name for t in among if t.status is taking)
    if state is not None and player.id in state.entries:
        parts.append(_entry_line(state, player.id))
        # In the night's order, as /schedule shows them: a knockout played before a group
        # round's published time (early, HGV-2.3.4) is not listed above it.
        matches = sorted(state.matches_of(player.id), key=lambda m: m.number)
        if matches:
            names = await s.names({q for m in matches for q in m.players})
            viewer = None if as_director else player.id
            parts.append(views.schedule_table(state, matches, names, viewer))
        penalties = [
            pen
            for pen in state.penalties.values()
            if pen.against == player.id and not pen.cancelled
        ]
        for penalty in penalties:
            at = When(penalty.at)
            parts.append(msg(f"{key}.penalty", match=penalty.match, points=penalty.points, at=at))
    to_come = await _entries_to_come(s, player, state)
    parts.extend(_entry_line(other, player.id) for other in to_come)
    club_sanctions = await s.uow.sanctions.for_club(s.club.id)
    statuses = {t.id: t.status.value for t in known}
    titles = {t.id: t.name for t in known}
    starts = {t.id: t.start for t in known}
    entered = state is not None and player.id in state.entries
    barred = None
    if state is not None and not entered:
        barred = sanctions.suspension_for(club_sanctions, player.id, state.id)
        if barred is not None and sanctions.standing(barred, statuses) != "active":
            barred = None  # served: said below
    if state is not None and barred is not None:
        # /register would be refused: say what bars them instead of inviting them to it
        parts.append(
            msg(
                f"{key}.suspended_from",
                tournament=Name(state.name),
                start=When(state.start, "datetime"),
                reason=notices.sanction_reason(reasons, barred.reason, barred.note),
                **named,
                **lift,
            )
        )
    elif state is not None and state.status is TournamentStatus.REGISTRATION and not entered:
        parts.append(
            msg(
                f"{key}.not_entered",
                tournament=Name(state.name),
                start=When(state.start, "datetime"),
                **named,
            )
        )
    elif not entered and open_now and not as_director:
        register = f'/register tournament:"{open_now[0]}"'
        parts.append(
            msg("me.open_elsewhere", tournaments=Name(", ".join(open_now)), command=Hint(register))
        )
    elif not entered and not to_come:
        parts.append(msg(f"{key}.no_entry", **named))
    for sanction in club_sanctions:
        if sanction.player != player.id or sanction is barred:
            continue
        standing = sanctions.standing(sanction, statuses)
        reason = notices.sanction_reason(reasons, sanction.reason, sanction.note)
        if standing == "active" and sanction.applies_to in titles:
            # The tournament it bars them from exists already (next month's, open while
            # this one is played): named, not "the next tournament".
            parts.append(
                msg(
                    f"{key}.suspended_from",
                    tournament=Name(titles[sanction.applies_to]),
                    start=When(starts[sanction.applies_to], "datetime"),
                    reason=reason,
                    **named,
                    **lift,
                )
            )
            forgotten = next(t for t in known if t.id == sanction.applies_to)
            if s.night_passed(forgotten):
                # "Suspended from Copa Enero (Sat, Jan 9)" in February read as served.
                parts.append(msg("me.suspension_waits", tournament=Name(forgotten.name)))
        elif standing == "active" and (origin := _open_origin(sanction, statuses)) is not None:
            # It bars the tournament after the one it was given in (/sanction).
            after = Name(titles[origin])
            parts.append(msg("me.sanction_after", tournament=after, reason=reason))
        elif standing == "active":
            parts.append(msg("me.sanction", reason=reason))
        elif standing == "served" and sanction.applies_to is not None:
            served = Name(titles.get(sanction.applies_to, ""))
            parts.append(msg(f"{key}.sanction_served", tournament=served, reason=reason, **named))
    parts.extend(await _last_result(s, player, state, known, key, named))
    return Reply(tuple(parts), private=True)


async def _last_result(
    s: Session,
    player: Player,
    shown: TournamentState | None,
    known: Sequence[calendar.Listed],
    key: str,
    named: dict[str, Param],
) -> list[Msg]:
    """Say how the player's latest finished tournament ended for them: the place (shared
    places as their range) and the ranking points; asked after the final, the card
    otherwise spoke only of next month's entry."""
    played = set(await s.uow.tournaments.of_player(player.id))
    finished = [t for t in known if t.id in played and t.status is TournamentStatus.FINISHED]
    if not finished:
        return []
    last = max(finished, key=lambda t: (t.start, t.id))
    state = shown if shown is not None and shown.id == last.id else None
    state = state or await s.uow.tournaments.get(last.id)
    placement = next((p for p in state.placements if p.player == player.id), None)
    if placement is None:
        return []
    params: dict[str, Param] = {
        "tournament": Name(state.name),
        "start": When(state.start, "date"),
        "points": float(Decimal(placement.points)),
        **named,
    }
    if placement.place is None:
        return [msg(f"{key}.last_result_unplaced", **params)]
    ranges = placements.shared_ranges([p.place for p in state.placements])
    first, last_place = ranges[placement.place]
    place = str(first) if first == last_place else f"{first}–{last_place}"
    return [msg(f"{key}.last_result", place=place, **params)]


def _open_origin(sanction: sanctions.Sanction, statuses: Mapping[int, str]) -> int | None:
    """Return the tournament a suspension was given in while it still took entries."""
    origin = sanction.origin
    if origin is not None and statuses.get(origin) == TournamentStatus.REGISTRATION.value:
        return origin
    return None


async def _set_language(s: Session, player: Player, language: str) -> Reply:
    """Set the language of a player's direct messages; `club` goes back to the club's."""
    wanted = language.strip().lower()
    if wanted == "club":
        player.language = None
    elif wanted in LANGUAGES:
        player.language = wanted
    else:
        raise Refused("bad_language", text=language, languages=", ".join((*LANGUAGES, "club")))
    # /me is a look-up (no tournament lock); this changes only the player's own setting.
    await s.uow.players.save(player)
    shown = player.language or s.club.language
    return Reply((msg("me.language", language=msg(f"language.{shown}")),), private=True)
