"""Platform-neutral replies: catalog messages, tables and buttons, as values.

A reply is data until an adapter renders it for its format; announcements are stored
in the outbox as `to_payload` JSON and rendered when sent, in the club's language.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, Union


@dataclass(frozen=True, slots=True)
class Name:
    """A user-supplied string (a player's or club's name): always escaped when rendered."""

    text: str


@dataclass(frozen=True, slots=True)
class When:
    """A moment, shown in the club's time zone."""

    at: datetime
    style: Literal["time", "datetime", "date"] = "time"


Param = Union[str, int, float, Name, When, "Msg"]


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
class Button:
    """A button that runs `command` as if its presser had typed it."""

    label: Msg
    command: str


@dataclass(frozen=True, slots=True)
class Reply:
    parts: tuple[Msg | Table, ...]
    buttons: tuple[Button, ...] = ()
    private: bool = False  # show only to the person who asked (where a platform can)


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
    parts: list[Msg | Table] = []
    for part in data["parts"]:
        if part["t"] == "msg":
            parts.append(_unmsg(part["msg"]))
        else:
            parts.append(
                Table(
                    title=_unmsg(part["title"]),
                    header=tuple(_unmsg(h) for h in part["header"]),
                    rows=tuple(tuple(_unparam(v) for v in row) for row in part["rows"]),
                    notes=tuple(_unmsg(n) for n in part["notes"]),
                )
            )
    buttons = tuple(Button(_unmsg(b["label"]), b["command"]) for b in data.get("buttons", []))
    return Reply(tuple(parts), buttons, bool(data.get("private", False)))


def _part(part: Msg | Table) -> dict[str, Any]:
    if isinstance(part, Msg):
        return {"t": "msg", "msg": _msg(part)}
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
    if isinstance(value, Msg):
        return {"msg": _msg(value)}
    return value


def _unmsg(data: Mapping[str, Any]) -> Msg:
    return Msg(data["key"], {k: _unparam(v) for k, v in data["params"].items()})


def _unparam(value: Any) -> Param:
    if isinstance(value, dict):
        if "name" in value:
            return Name(value["name"])
        if "when" in value:
            return When(datetime.fromisoformat(value["when"]), value["style"])
        return _unmsg(value["msg"])
    if isinstance(value, str | int | float):
        return value
    raise ValueError(f"not a reply parameter: {value!r}")
