"""What directors do to the club: link chats, name directors, set the club's options."""

from __future__ import annotations

import secrets
from datetime import timedelta

from commands import arguments, claims, public_pages
from commands import names as naming
from commands.params import Args
from commands.replies import Button, Hint, Name, Reply, When, msg, say, to_payload
from commands.resolver import Roster, fold
from commands.session import Session
from tournament.club import AccountRef, Player
from tournament.model import Refused


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
    # A claim code is not a right: "director rights go only by an exact name" misled.
    key = "director.exact_name_claim" if verb == "claim" else "director.exact_name"
    ask = msg(key, name=Name(player.name), typed=Name(typed), command=Hint(command))
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
        str(AccountRef(platform, external))
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
        out.append(player.name if player is not None else str(AccountRef(platform, external)))
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
        parts.append(await public_pages.switch(s, pages == "on"))
    return Reply(tuple(parts))
