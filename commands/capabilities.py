"""Buttons as capabilities (docs/SECURITY.md): bound to their club and to the account
they are for before they are posted, and shown unbound where a person types them."""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache

from commands.parsing import ParseError, parse
from commands.replies import Button, Reply


def bind(reply: Reply, club_id: int, owner: str | None) -> Reply:
    """Make a reply's buttons capabilities: each names its club (pressed in a private
    chat, it acts in the club it came from, not in whichever club the person joined
    first) and, unless it only looks something up, the account it is for (`owner`, a
    user id on the platform it is sent on). `None`: a button for the club's chat, whose
    command checks the presser's rights itself (`/lot`, for directors)."""
    if not reply.buttons:
        return reply
    bound = (_bound(b, club_id, owner) for b in reply.buttons)
    return replace(reply, buttons=tuple(b for b in bound if b is not None))


def as_typed_command(command: str) -> str:
    """Return a bound button's command as a person types it: without the `club:` and
    `for:` it carries (the console shows buttons this way, to be typed)."""
    return _BOUND_TAIL.sub("", command)


_BOUND_TAIL = re.compile(r'( (?:club:(?:[0-9]+|"[^"]*")|for:(?:"[^"]*"|[^\s"]+)))+$')


def _bound(button: Button, club_id: int, owner: str | None) -> Button | None:
    """Return the button bound, or None for one whose command cannot be read (never
    posted unbound)."""
    options = _options(button.command)
    if options is None:
        return None
    command = button.command
    if "club" not in options:
        command += f" club:{club_id}"
    if owner is not None and not button.open and "for" not in options:
        command += f' for:"{owner}"' if " " in owner else f" for:{owner}"
    return Button(button.label, command, button.open)


@lru_cache(maxsize=1024)
def _options(command: str) -> frozenset[str] | None:
    """Return the options a button's command names, or None when it cannot be read (a
    club's buttons are the same few commands: each is read once)."""
    try:
        return frozenset(parse(command).options)
    except ParseError:
        return None
