"""Platform-neutral replies: catalog messages, tables and buttons, as values.

A reply is data until an adapter renders it for its format; announcements are stored
in the outbox as `to_payload` JSON and rendered when sent, in the club's language.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from commands.messages import Hint as Hint
from commands.messages import Link as Link
from commands.messages import Mention as Mention
from commands.messages import Msg as Msg
from commands.messages import Name as Name
from commands.messages import Param as Param
from commands.messages import Table as Table
from commands.messages import When as When
from commands.messages import msg as msg
from commands.messages import msg_data, msg_from_data
from commands.messages import param_data as param_data
from commands.messages import param_from_data as param_from_data
from commands.picture_views import PictureView, from_data, to_data
from tournament import calendar
from tournament.model import EntryStatus, Refused


@dataclass(frozen=True, slots=True)
class Picture:
    """A picture (commands.pictures view, drawn by bot.pictures) with its text twin.

    Where pictures are off or cannot be sent, `fallback` is shown instead; `name` is
    the file name stem (the console writes `NAME.png`), `caption` goes under it.
    """

    name: str
    view: PictureView
    caption: Msg
    fallback: tuple[Msg | Table, ...]


Part = Msg | Table | Picture


def as_text(parts: Iterable[Part]) -> list[Msg | Table]:
    """Return the parts as text shows them: each picture as its text twin."""
    return [
        shown
        for part in parts
        for shown in (part.fallback if isinstance(part, Picture) else (part,))
    ]


@dataclass(frozen=True, slots=True)
class Button:
    """A button that runs `command` as if its presser had typed it.

    A button is a capability (docs/SECURITY.md): before it is posted, the session binds
    it to its club and to the person it is for (`club:7 for:<account>`); pressed by
    anyone else it is refused privately and changes nothing. Only a look-up may be
    `open` to whoever presses it.
    """

    label: Msg
    command: str
    open: bool = False


@dataclass(frozen=True, slots=True)
class Reply:
    parts: tuple[Part, ...]
    buttons: tuple[Button, ...] = ()
    private: bool = False  # show only to the person who asked (where a platform can)
    # A secret (a link code): shown in a private chat or not at all, never in a group,
    # and never queued in the outbox.
    secret: bool = False
    # The command's answer is its own announcement: in a chat that hears the announcement,
    # that announcement is the reply (one message, not two); elsewhere (a private chat)
    # `parts` say it. `aside`: what only the sender reads, after it, in both places.
    announced: bool = False
    aside: tuple[Part, ...] = ()


def say(key: str, /, **params: Param) -> Reply:
    return Reply((Msg(key, params),))


def announced(reply: Reply, *aside: Part) -> Reply:
    """Mark a reply as the command's own announcement, with what only its sender reads."""
    return replace(reply, announced=True, aside=aside)


def to_payload(reply: Reply) -> dict[str, Any]:
    """Return the reply as JSON-ready data."""
    return {
        "parts": [_part(p) for p in reply.parts],
        "buttons": [{"label": msg_data(b.label), "command": b.command} for b in reply.buttons],
        "private": reply.private,
    }


def from_payload(data: Mapping[str, Any]) -> Reply:
    """Rebuild a reply from `to_payload` data."""
    parts = [_unpart(part) for part in data["parts"]]
    buttons = tuple(
        Button(msg_from_data(b["label"]), b["command"]) for b in data.get("buttons", [])
    )
    return Reply(tuple(parts), buttons, bool(data.get("private", False)))


def _unpart(part: Mapping[str, Any]) -> Part:
    if part["t"] == "msg":
        return msg_from_data(part["msg"])
    if part["t"] == "picture":
        return Picture(
            name=str(part["name"]),
            view=from_data(part["view"]),
            caption=msg_from_data(part["caption"]),
            fallback=tuple(_unfallback(p) for p in part["fallback"]),
        )
    return Table(
        title=msg_from_data(part["title"]),
        header=tuple(msg_from_data(h) for h in part["header"]),
        rows=tuple(tuple(param_from_data(v) for v in row) for row in part["rows"]),
        notes=tuple(msg_from_data(n) for n in part["notes"]),
    )


def _unfallback(part: Mapping[str, Any]) -> Msg | Table:
    found = _unpart(part)
    if isinstance(found, Picture):
        raise ValueError("a picture's fallback is text")
    return found


def _part(part: Part) -> dict[str, Any]:
    if isinstance(part, Msg):
        return {"t": "msg", "msg": msg_data(part)}
    if isinstance(part, Picture):
        return {
            "t": "picture",
            "name": part.name,
            "view": to_data(part.view),
            "caption": msg_data(part.caption),
            "fallback": [_part(p) for p in part.fallback],
        }
    return {
        "t": "table",
        "title": msg_data(part.title),
        "header": [msg_data(h) for h in part.header],
        "rows": [[param_data(v) for v in row] for row in part.rows],
        "notes": [msg_data(n) for n in part.notes],
    }


# Refusal parameters that are something to type, not a name.
_HINTS = frozenset({"usage", "example", "command", "suggestion"})


def refusal_params(params: Mapping[str, object]) -> dict[str, Param]:
    """Make refusal parameters renderable; text is user data, so it is escaped."""
    out: dict[str, Param] = {}
    for key, value in params.items():
        if key.startswith("_"):
            continue  # for the code that answers, not for the message
        if isinstance(value, bool):
            out[key] = str(value)
        elif isinstance(value, int | float):
            out[key] = value
        elif isinstance(value, datetime):
            out[key] = When(value, "datetime")
        elif isinstance(value, When | Name | Msg | Hint):
            out[key] = value
        elif key in _HINTS and isinstance(value, str) and value.startswith("/"):
            out[key] = Hint(value)  # what to type, as the platform types it
        elif isinstance(value, EntryStatus):
            out[key] = msg(f"entry.{value.value}")  # "no-show" in the club's words
        else:
            out[key] = Name(str(value))
    return out


def refused_line(refusal: Refused) -> Msg:
    """Return a refusal as one line of a reply that goes on (a batch's one name)."""
    return msg(f"refused.{refusal.code}", **refusal_params(refusal.params))


# Refusals whose moment is most often later the same day: they then say only its time,
# in a form of their own ("a las 19:40", not "el sáb, 6 mar, 19:40").
SAID_TODAY = {
    "match_not_started": "start",
    "match_after_mine": "start",
    "match_after_theirs": "start",
    "match_later": "start",
    "checkin_not_open": "opens",
    "already_away": "since",
}


def on_the_day(refusal: Refused, now: datetime, zone: str) -> Refused:
    """Return the refusal in its same-day form when its moment falls on `now`'s day."""
    key = SAID_TODAY.get(refusal.code)
    moment = refusal.params.get(key) if key else None
    if key is None or not isinstance(moment, datetime):
        return refusal
    if calendar.local(moment, zone).date() != calendar.local(now, zone).date():
        return refusal
    return Refused(f"{refusal.code}_today", **{**refusal.params, key: When(moment, "time")})
