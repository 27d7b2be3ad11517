"""The club's public pages (INTERFACE §6): turning them on and off, and their links.

A club's pages live under a secret path of at least 96 random bits (`/c/<token>`); a
tournament's page is below it (`/c/<token>/t/<id>`). Turning the pages off forgets the
secret, so every old link answers 404; turning them on again makes a new one.
"""

from __future__ import annotations

import secrets

from commands.ports import UnitOfWork

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
