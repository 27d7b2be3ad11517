"""/club join CODE: connect a chat to a club that lives in another chat."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from commands.config import CommandConfig
from commands.params import Args
from commands.ports import UnitOfWork
from commands.replies import Name, Reply, say, to_payload
from commands.session import Invocation
from tournament.club import AccountRef, Club
from tournament.model import Refused

JOIN_ATTEMPTS = 5  # wrong link codes a person may try ...
JOIN_ATTEMPTS_WINDOW = timedelta(hours=1)  # ... in this long


async def club_join(
    uow: UnitOfWork,
    inv: Invocation,
    config: CommandConfig,
    args: Args,
    use: Callable[[Club], None],
) -> Reply:
    """Ask to connect this chat to a club that lives in another chat (/club join CODE).

    Only a director of this chat may; each failed code is logged, and after a few in an
    hour the person is refused outright. A good code makes the link pending: the club's
    directors are asked, and /club confirm there lets announcements flow here.
    """
    code = (args.text("code") or "").strip()
    await _may_join(uow, inv, config, use)
    if not code:
        raise Refused("join_code_required")
    who = str(AccountRef(inv.platform, inv.user))
    club = await _redeem(uow, inv, code, who)
    use(club)
    pending = await uow.clubs.pending_chats(club.id)
    link = next(i for i, p, c in pending if (p, c) == (inv.platform, inv.chat))
    await uow.audit.add(
        club_id=club.id,
        tournament_id=None,
        actor=f"{who} ({inv.user_name})",
        action="club_join",
        detail={"chat": inv.chat, "link": link, "status": "pending"},
        at=inv.now,
    )
    await _ask_the_directors(uow, inv, club, link)
    return say("club.join_pending", club=Name(club.name), link=link)


async def _may_join(
    uow: UnitOfWork, inv: Invocation, config: CommandConfig, use: Callable[[Club], None]
) -> None:
    """Refuse unless a director of a group chat that has no club yet asks."""
    if inv.private:
        raise Refused("join_in_group")
    if not (inv.chat_admin or (inv.platform, inv.user) in config.directors):
        raise Refused("directors_only", command="club join")
    existing = await uow.clubs.for_chat(inv.platform, inv.chat)
    if existing is not None:
        use(existing)
        raise Refused("chat_has_club", club=existing.name)


async def _redeem(uow: UnitOfWork, inv: Invocation, code: str, who: str) -> Club:
    """Return the club a link code names, its link to this chat now pending; count and
    refuse a bad code (a few an hour at most)."""
    since = inv.now - JOIN_ATTEMPTS_WINDOW
    if await uow.audit.count(action="club_join_failed", actor=who, since=since) >= JOIN_ATTEMPTS:
        raise Refused("join_attempts", minutes=int(JOIN_ATTEMPTS_WINDOW.total_seconds() // 60))
    club_id = await uow.clubs.redeem_link_code(code, inv.now)
    if club_id is None:
        # Logged and committed although the command is refused: the count must hold.
        await uow.audit.add(
            club_id=None,
            tournament_id=None,
            actor=who,
            action="club_join_failed",
            detail={"chat": inv.chat, "name": inv.user_name, "code_length": len(code)},
            at=inv.now,
        )
        await uow.commit()
        raise Refused("bad_join_code", given=code[:40])
    await uow.clubs.link_chat(club_id, inv.platform, inv.chat, pending=True)
    return await uow.clubs.get(club_id)


async def _ask_the_directors(uow: UnitOfWork, inv: Invocation, club: Club, link: int) -> None:
    """Queue the request to the club's chats, where /club confirm answers it."""
    request = to_payload(say("club.join_request", link=link, name=Name(inv.user_name)))
    await uow.outbox.add_many(
        [
            {
                "club_id": club.id,
                "platform": platform,
                "chat": chat,
                "payload": request,
                "created_at": inv.now,
            }
            for platform, chat in await uow.clubs.chats(club.id)
        ]
    )
