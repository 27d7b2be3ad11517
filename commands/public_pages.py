"""/web and /club web: turning the club's public pages on and off, and their links."""

from __future__ import annotations

from commands.params import Args
from commands.replies import Link, Msg, Name, Reply, msg
from commands.session import Session
from commands.web import club_path, join, new_token, tournament_path
from tournament.model import TournamentStatus


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
