"""Message values: catalog keys with parameters, names, moments, links and tables.

The bottom of the reply layer: pictures' views and replies are built from these, so
this module imports neither.
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
    """A moment, shown in the club's time zone (`month`: its month's name, capitalised as
    in a tournament's name: "Copa de Enero", "Puchar Stycznia")."""

    at: datetime
    style: Literal["time", "datetime", "date", "month"] = "time"


@dataclass(frozen=True, slots=True)
class Link:
    """A web address the bot made (the public pages): shown as a link, never escaped into
    a broken one (Discord markdown would turn `my-club.org` into `my\\-club.org`)."""

    url: str


@dataclass(frozen=True, slots=True)
class Mention:
    """A person a message calls: pinged where they have an account on the platform the
    message goes to, shown by name everywhere else.

    `users` are those accounts, filled in per platform when the message is addressed
    (commands.mentions); `directors` stands for the club's directors (their accounts,
    and on Discord the director role), `name` then being unused.
    """

    name: str
    player: int | None = None
    users: tuple[str, ...] = ()
    directors: bool = False


@dataclass(frozen=True, slots=True)
class Hint:
    """A command line the reader may type, in its text form (`/result 1 3-1`): shown as
    each platform types it, Discord's slash menu naming every option."""

    line: str


Param = Union[str, int, float, Name, When, Link, Mention, Hint, "Msg"]


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


def msg_data(message: Msg) -> dict[str, Any]:
    """Return a message as JSON-ready data."""
    return {"key": message.key, "params": {k: _param(v) for k, v in message.params.items()}}


# Values that are their own JSON (most parameters, and of a picture's ~700 values): not
# matched against every kind of parameter.
PLAIN_JSON = frozenset({str, int, float, bool, type(None)})


def _param(value: Param) -> Any:
    if type(value) in PLAIN_JSON:
        return value
    if isinstance(value, Name):
        return {"name": value.text}
    if isinstance(value, When):
        return {"when": value.at.isoformat(), "style": value.style}
    if isinstance(value, Link):
        return {"link": value.url}
    if isinstance(value, Msg):
        return {"msg": msg_data(value)}
    if isinstance(value, Hint):
        return {"hint": value.line}
    if isinstance(value, Mention):
        return {
            "mention": value.name,
            "player": value.player,
            "users": list(value.users),
            "directors": value.directors,
        }
    return value


def param_data(value: Param) -> Any:
    """Return a message parameter as JSON-ready data."""
    return _param(value)


def param_from_data(value: Any) -> Param:
    """Rebuild a message parameter from `param_data` output."""
    return _unparam(value)


def msg_from_data(data: Mapping[str, Any]) -> Msg:
    """Rebuild a message from `msg_data` output."""
    return Msg(data["key"], {k: _unparam(v) for k, v in data["params"].items()})


def _unparam(value: Any) -> Param:
    if isinstance(value, dict):
        if "name" in value:
            return Name(value["name"])
        if "when" in value:
            return When(datetime.fromisoformat(value["when"]), value["style"])
        if "link" in value:
            return Link(value["link"])
        if "hint" in value:
            return Hint(str(value["hint"]))
        if "mention" in value:
            return Mention(
                str(value["mention"]),
                value.get("player"),
                tuple(str(u) for u in value.get("users", ())),
                bool(value.get("directors", False)),
            )
        return msg_from_data(value["msg"])
    if isinstance(value, str | int | float):
        return value
    raise ValueError(f"not a reply parameter: {value!r}")
