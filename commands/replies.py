"""Platform-neutral replies: catalog messages, tables and buttons, as values.

A reply is data until an adapter renders it for its format; announcements are stored
in the outbox as `to_payload` JSON and rendered when sent, in the club's language.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal, Union

if TYPE_CHECKING:
    from commands.pictures import PictureView


@dataclass(frozen=True, slots=True)
class Name:
    """A user-supplied string (a player's or club's name): always escaped when rendered."""

    text: str


@dataclass(frozen=True, slots=True)
class When:
    """A moment, shown in the club's time zone."""

    at: datetime
    style: Literal["time", "datetime", "date"] = "time"


@dataclass(frozen=True, slots=True)
class Link:
    """A web address the bot made (the public pages): shown as a link, never escaped into
    a broken one (Discord markdown would turn `my-club.org` into `my\\-club.org`)."""

    url: str


Param = Union[str, int, float, Name, When, Link, "Msg"]


@dataclass(frozen=True, slots=True)
class Msg:
    """One message of the catalog with its parameters."""

    key: str
    params: Mapping[str, Param] = field(default_factory=dict)


def msg(key: str, /, **params: Param) -> Msg:
    return Msg(key, params)


@dataclass(frozen=True, slots=True)
class Table:
    """A small table shown monospaced (or as a picture where a platform can)."""

    title: Msg
    header: tuple[Msg, ...]
    rows: tuple[tuple[Param, ...], ...]
    notes: tuple[Msg, ...] = ()


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


def say(key: str, /, **params: Param) -> Reply:
    return Reply((Msg(key, params),))


def to_payload(reply: Reply) -> dict[str, Any]:
    """Return the reply as JSON-ready data."""
    return {
        "parts": [_part(p) for p in reply.parts],
        "buttons": [{"label": _msg(b.label), "command": b.command} for b in reply.buttons],
        "private": reply.private,
    }


def from_payload(data: Mapping[str, Any]) -> Reply:
    """Rebuild a reply from `to_payload` data."""
    parts = [_unpart(part) for part in data["parts"]]
    buttons = tuple(Button(_unmsg(b["label"]), b["command"]) for b in data.get("buttons", []))
    return Reply(tuple(parts), buttons, bool(data.get("private", False)))


def _unpart(part: Mapping[str, Any]) -> Part:
    if part["t"] == "msg":
        return _unmsg(part["msg"])
    if part["t"] == "picture":
        from commands.pictures import from_data  # pictures builds on these values

        return Picture(
            name=str(part["name"]),
            view=from_data(part["view"]),
            caption=_unmsg(part["caption"]),
            fallback=tuple(_unfallback(p) for p in part["fallback"]),
        )
    return Table(
        title=_unmsg(part["title"]),
        header=tuple(_unmsg(h) for h in part["header"]),
        rows=tuple(tuple(_unparam(v) for v in row) for row in part["rows"]),
        notes=tuple(_unmsg(n) for n in part["notes"]),
    )


def _unfallback(part: Mapping[str, Any]) -> Msg | Table:
    found = _unpart(part)
    if isinstance(found, Picture):
        raise ValueError("a picture's fallback is text")
    return found


def _part(part: Part) -> dict[str, Any]:
    if isinstance(part, Msg):
        return {"t": "msg", "msg": _msg(part)}
    if isinstance(part, Picture):
        from commands.pictures import to_data

        return {
            "t": "picture",
            "name": part.name,
            "view": to_data(part.view),
            "caption": _msg(part.caption),
            "fallback": [_part(p) for p in part.fallback],
        }
    return {
        "t": "table",
        "title": _msg(part.title),
        "header": [_msg(h) for h in part.header],
        "rows": [[_param(v) for v in row] for row in part.rows],
        "notes": [_msg(n) for n in part.notes],
    }


def _msg(message: Msg) -> dict[str, Any]:
    return {"key": message.key, "params": {k: _param(v) for k, v in message.params.items()}}


def _param(value: Param) -> Any:
    if isinstance(value, Name):
        return {"name": value.text}
    if isinstance(value, When):
        return {"when": value.at.isoformat(), "style": value.style}
    if isinstance(value, Link):
        return {"link": value.url}
    if isinstance(value, Msg):
        return {"msg": _msg(value)}
    return value


def param_data(value: Param) -> Any:
    """Return a message parameter as JSON-ready data."""
    return _param(value)


def param_from_data(value: Any) -> Param:
    """Rebuild a message parameter from `param_data` output."""
    return _unparam(value)


def _unmsg(data: Mapping[str, Any]) -> Msg:
    return Msg(data["key"], {k: _unparam(v) for k, v in data["params"].items()})


def _unparam(value: Any) -> Param:
    if isinstance(value, dict):
        if "name" in value:
            return Name(value["name"])
        if "when" in value:
            return When(datetime.fromisoformat(value["when"]), value["style"])
        if "link" in value:
            return Link(value["link"])
        return _unmsg(value["msg"])
    if isinstance(value, str | int | float):
        return value
    raise ValueError(f"not a reply parameter: {value!r}")
