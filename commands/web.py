"""The club's public pages (INTERFACE §6): turning them on and off, and their links.

A club's pages live under a secret path of at least 96 random bits (`/c/<token>`); a
tournament's page is below it (`/c/<token>/t/<id>`). Turning the pages off forgets the
secret, so every old link answers 404; turning them on again makes a new one.
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

from commands.ports import UnitOfWork
from commands.replies import Link, Msg, Name, Reply, msg
from tournament.model import TournamentStatus

if TYPE_CHECKING:  # the session announces with these links: no import cycle at run time
    from commands.params import Args
    from commands.session import Session

TOKEN_BYTES = 16  # 128 random bits, as 32 hex digits: nothing a chat's markup would escape


def new_token() -> str:
    """Return a fresh secret for a club's pages."""
    return secrets.token_hex(TOKEN_BYTES)


def club_path(token: str) -> str:
    return f"/c/{token}"


def tournament_path(token: str, tournament_id: int) -> str:
    return f"{club_path(token)}/t/{tournament_id}"


def join(base: str, path: str) -> str:
    """Return the public URL of a page path."""
    return base.rstrip("/") + path


async def tournament_link(
    uow: UnitOfWork, base: str, club_id: int, tournament_id: int
) -> str | None:
    """Return a tournament page's link, None while the club's pages are off."""
    token = await uow.clubs.web_token(club_id)
    return None if token is None else join(base, tournament_path(token, tournament_id))


async def switch(s: Session, on: bool) -> Msg:
    """Turn the club's pages on (keeping a link already given) or off; say so."""
    token = await s.uow.clubs.web_token(s.club.id)
    if not on:
        if token is not None:
            await s.uow.clubs.set_web_token(s.club.id, None)
            s.log("web", on=False)
        return msg("web.off")
    if token is None:
        token = new_token()
        await s.uow.clubs.set_web_token(s.club.id, token)
        s.log("web", on=True)
    return msg("web.on", url=Link(join(s.config.web_url, club_path(token))))


async def club_web(s: Session, a: Args) -> Reply:
    """`/club web on|off` switches the pages like `/club web:on`; bare, gives the link."""
    state = a.choice("web")
    if state is not None:
        return Reply((await switch(s, state == "on"),))
    token = await s.uow.clubs.web_token(s.club.id)
    if token is None:
        return Reply((msg("web.pages_off"),))
    return Reply((msg("web.on", url=Link(join(s.config.web_url, club_path(token)))),))


async def web(s: Session, _a: object) -> Reply:
    """Give the link of the current tournament's page, or the club's when none is on."""
    token = await s.uow.clubs.web_token(s.club.id)
    if token is None:
        return Reply((msg("web.pages_off"),))
    state = await s.maybe_tournament()
    if state is None or state.status is TournamentStatus.CANCELLED:
        return Reply((msg("web.club_link", url=Link(join(s.config.web_url, club_path(token)))),))
    url = join(s.config.web_url, tournament_path(token, state.id))
    return Reply((msg("web.link", tournament=Name(state.name), url=Link(url)),))
