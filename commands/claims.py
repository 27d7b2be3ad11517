"""Claim codes: how a person takes over a player a director entered or imported.

A player without a chat account (from /addplayer or `clubtd ranking import`) is not
taken by whoever types the same name: a director hands out a one-time code with
/director claim (shown privately), and the person sends `/register claim:CODE` to the
bot in a private chat. The code says which club and which player it is for, so a typo
in a name can neither create a player nor leave the code lying around; typed in a group,
where others see it, the code is spent at once and refused. Only the code's hash is
kept (in meta), it expires after a week and works once; the sweep prunes used and
expired ones (storage/housekeeping.py).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from datetime import datetime, timedelta

from commands.session import Session
from tournament.club import Player
from tournament.model import Refused

CLAIM_DAYS = 7
# On the console an account is whatever name the operator types (`--as NAME`, any
# transcript line): whoever sits there can be anyone already, so a name claims a player
# there. On a chat platform an account is a person, and a name proves nothing.
NAME_IS_ACCOUNT = frozenset({"console"})
PREFIX = "claim."
_KEY = PREFIX + "{club}.{player}"
_CODE = re.compile(r"([0-9]{1,9})-[A-Za-z0-9_-]{8,64}")


# A code is read off a phone or a slip of paper, often by an older player: no 0/o, 1/l/i
# nor capitals to tell apart. 31 symbols, 15 of them: 74 random bits.
_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
_SYMBOLS = 15


def _hash(code: str) -> str:
    return hashlib.sha256(code.strip().encode("utf-8", "surrogateescape")).hexdigest()


def _as_meant(code: str) -> str:
    """Return a code as issued, in lower case: a phone keyboard capitalises a first letter,
    and a code copied off paper may be written in capitals."""
    return code.strip().lower()


def club_of(code: str | None) -> int | None:
    """Return the club a claim code was issued in (it starts with the club's id)."""
    found = _CODE.fullmatch((code or "").strip())
    return int(found.group(1)) if found else None


async def issue(s: Session, player: Player) -> tuple[str, datetime]:
    """Store a fresh code for `player` (the last one issued is the one that counts)."""
    # 74 random bits, after the club's id: typed once by the person it is given to, in
    # groups of five.
    symbols = "".join(secrets.choice(_ALPHABET) for _ in range(_SYMBOLS))
    groups = "-".join(symbols[i : i + 5] for i in range(0, _SYMBOLS, 5))
    code = f"{s.club.id}-{groups}"
    expires = s.now + timedelta(days=CLAIM_DAYS)
    key = _KEY.format(club=s.club.id, player=player.id)
    await s.uow.meta.set(key, f"{_hash(code)} {expires.isoformat()}")
    return code, expires


def expired(value: str, now: datetime) -> bool:
    """Return whether a stored code (`hash expiry`, or "" once used) can go."""
    digest, _, until = value.partition(" ")
    try:
        return not digest or datetime.fromisoformat(until) <= now
    except ValueError:
        return True


async def _holder(s: Session, code: str) -> int | None:
    """Return the player of this club whose live code `code` is."""
    prefix = _KEY.format(club=s.club.id, player="")
    # As typed, for a code issued before codes were lower case (they were case-sensitive).
    wanted = {_hash(code), _hash(_as_meant(code))}
    found = None
    for key, value in (await s.uow.meta.starting(prefix)).items():
        digest = value.partition(" ")[0]
        matches = [hmac.compare_digest(digest, w) for w in sorted(wanted)]
        if any(matches) and not expired(value, s.now):
            found = int(key.removeprefix(prefix))
    return found


async def take(s: Session, code: str) -> Player:
    """Link the asker's account to the player the code was issued for, and spend it.

    Never creates a player. In a group the code is seen by everyone: it is spent and
    refused, and the person asks a director for a new one.
    """
    holder = await _holder(s, code)
    if not s.inv.private and s.inv.platform not in NAME_IS_ACCOUNT:
        if holder is not None:
            await s.uow.meta.set(_KEY.format(club=s.club.id, player=holder), "")
            await s.uow.audit.add(
                club_id=s.club.id,
                tournament_id=None,
                actor=s.actor,
                action="claim_code_seen",
                detail={"player": holder, "chat": s.inv.chat},
                at=s.now,
            )
            await s.uow.commit()  # spent although the command is refused
        raise Refused("claim_in_private")
    if holder is None:
        raise Refused("bad_claim_code")
    if s.player is not None:  # this account is a player of the club already
        raise Refused("already_claimed", name=s.player.name)
    player = await s.uow.players.get(holder)
    if await s.uow.players.accounts(player.id):
        raise Refused("already_claimed", name=player.name)
    await s.uow.meta.set(_KEY.format(club=s.club.id, player=player.id), "")  # once
    await s.uow.players.add_account(player.id, s.inv.platform, s.inv.user)
    s.log("claim", player=player.name)
    return player
