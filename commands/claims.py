"""Claim codes: how a person takes over a player a director entered or imported.

A player without a chat account (from /addplayer or `clubtd ranking import`) is not
taken by whoever types the same name: a director hands out a one-time code with
/director claim, and /register name:"..." claim:CODE links the account. Only the code's
hash is kept (in meta), it expires after a week and works once.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from datetime import datetime, timedelta

from commands.session import Session
from tournament.club import Player

CLAIM_DAYS = 7
# On the console an account is whatever name the operator types (`--as NAME`, any
# transcript line): whoever sits there can be anyone already, so a name claims a player
# there. On a chat platform an account is a person, and a name proves nothing.
NAME_IS_ACCOUNT = frozenset({"console"})
_KEY = "claim.{club}.{player}"


def _hash(code: str) -> str:
    return hashlib.sha256(code.strip().encode("utf-8", "surrogateescape")).hexdigest()


async def issue(s: Session, player: Player) -> tuple[str, datetime]:
    """Store a fresh code for `player` (the last one issued is the one that counts)."""
    code = secrets.token_urlsafe(9)  # 72 bits, typed once by the person it is given to
    expires = s.now + timedelta(days=CLAIM_DAYS)
    key = _KEY.format(club=s.club.id, player=player.id)
    await s.uow.meta.set(key, f"{_hash(code)} {expires.isoformat()}")
    return code, expires


async def redeem(s: Session, player: Player, code: str) -> bool:
    """Use up `player`'s code if `code` is it and it has not expired."""
    key = _KEY.format(club=s.club.id, player=player.id)
    stored = await s.uow.meta.get(key)
    if not stored:
        return False
    digest, _, until = stored.partition(" ")
    if not hmac.compare_digest(digest, _hash(code)) or datetime.fromisoformat(until) <= s.now:
        return False
    await s.uow.meta.set(key, "")  # once
    return True
