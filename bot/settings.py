"""Settings from the environment or `.env` (INTERFACE §5); read once, by the CLI.

Standard library only: pydantic-settings cost about 70 ms of every `clubtd` call (issue 17).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot import envfile
from commands.languages import LANGUAGES

PLATFORMS = ("telegram", "discord", "console")
# What an account id looks like on each platform: a director entry that can never match
# (`telegram:@ana`, a user name instead of the numeric id) is an error at start-up.
_ID_SHAPES = {
    "telegram": re.compile(r"[1-9][0-9]{0,15}"),
    "discord": re.compile(r"[1-9][0-9]{0,20}"),
    "console": re.compile(r"[^\s,;:]{1,64}"),
}

Directors = frozenset[tuple[str, str]]


@dataclass(frozen=True, slots=True)
class Shards:
    """The Discord shards one process runs: `ids` of `count` (CLUBTD_DISCORD_SHARDS)."""

    ids: tuple[int, ...]
    count: int


def parse_shards(value: Any) -> Shards | None:
    """Read `0-1/4` (shards 0 and 1 of 4), `2/4` or `0,2/4`; blank means all shards."""
    if value is None or isinstance(value, Shards):
        return value
    text = str(value).strip()
    if not text:
        return None
    how = "write the shards as FIRST-LAST/COUNT, e.g. 0-1/4 (shards 0 and 1 of 4) or 2/4"
    ids_text, slash, count_text = text.partition("/")
    if not slash or not count_text.strip().isdigit() or int(count_text) < 1:
        raise ValueError(f"{text!r}: {how}")
    count = int(count_text)
    ids: set[int] = set()
    for part in ids_text.split(","):
        first, dash, last = part.strip().partition("-")
        if not first.isdigit() or (dash and not last.strip().isdigit()):
            raise ValueError(f"{text!r}: {how}")
        low, high = int(first), int(last) if dash else int(first)
        if low > high or high >= count:
            raise ValueError(f"{text!r}: shard numbers run from 0 to {count - 1}; {how}")
        ids.update(range(low, high + 1))
    return Shards(tuple(sorted(ids)), count)


def parse_directors(value: Any) -> Directors:
    """Read `telegram:123,discord:456` into {("telegram", "123"), ("discord", "456")}."""
    if value is None:
        return frozenset()
    if isinstance(value, str):
        items: list[Any] = [part for part in value.replace(";", ",").split(",") if part.strip()]
    else:
        items = list(value)
    found: set[tuple[str, str]] = set()
    for item in items:
        if isinstance(item, str):
            platform, colon, user = item.strip().partition(":")
        else:
            platform, user = item
            colon = ":"
        platform, user = str(platform).strip().lower(), str(user).strip()
        if not colon or not user or platform not in PLATFORMS:
            raise ValueError(
                f"{item!r}: write directors as platform:id, e.g. telegram:123,discord:456 "
                f"(platforms: {', '.join(PLATFORMS)})"
            )
        if not _ID_SHAPES[platform].fullmatch(user):
            raise ValueError(
                f"{item!r}: a {platform} director is given by the numeric account id "
                f"(a user name like @ana can change hands and never matches), "
                f"e.g. telegram:123456789"
            )
        found.add((platform, user))
    return frozenset(found)


class SecretStr:
    """A token or secret: its text only through `get_secret_value`, never in a repr."""

    __slots__ = ("_text",)

    def __init__(self, text: str) -> None:
        self._text = text

    def get_secret_value(self) -> str:
        """Return the secret itself."""
        return self._text

    def __repr__(self) -> str:
        return f"SecretStr('{self}')"

    def __str__(self) -> str:
        return "**********" if self._text else ""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SecretStr) and other._text == self._text

    def __hash__(self) -> int:
        return hash(self._text)


def secret_text(value: Any) -> str | None:
    """Return a setting that may be a SecretStr as plain text (None if blank): what an
    adapter reads its token and webhook secret with."""
    if value is None:
        return None
    text = value.get_secret_value() if hasattr(value, "get_secret_value") else str(value)
    return text.strip() or None


class SettingsError(ValueError):
    """Settings that cannot be used: one line per setting, naming its variable."""

    def __init__(self, problems: list[tuple[str, str]]) -> None:
        self.problems = problems
        super().__init__("\n".join(f"{name}: {message}" for name, message in problems))


@dataclass(frozen=True, init=False)
class Settings:
    """Everything the bot reads from its environment; nothing else reads it.

    `Settings(**values)` takes each setting from `values`, else the environment variable
    `CLUBTD_<NAME>` (any case), else the `.env` file of the working directory, else its
    default; it raises SettingsError naming every setting that is wrong.
    """

    database_url: str = "sqlite:///clubtd.db"
    discord_token: SecretStr | None = None
    # Another REST base (a rate-limit proxy, a test double); its gateway comes from it.
    discord_api_url: str | None = None
    # Members with this role (its numeric id) are directors, besides Manage Server.
    discord_director_role: str | None = None
    # A range of shards for this process (`0-1/4`); unset: all of them, as Discord advises.
    discord_shards: Shards | None = None
    telegram_token: SecretStr | None = None
    telegram_api_url: str | None = None
    # Webhook mode instead of polling when a public URL is set (Telegram posts updates).
    telegram_webhook_url: str | None = None
    telegram_webhook_secret: SecretStr | None = None
    telegram_webhook_listen: str = "0.0.0.0"
    telegram_webhook_port: int = 8443
    directors: Directors = frozenset()
    timezone: str = "UTC"
    language: str = "en"
    # The public pages (INTERFACE §6): where `clubtd run` serves them, and the public
    # base URL of the links the bot gives (default: http:// + the listen address).
    web_listen: str | None = None
    web_url: str | None = None

    def __init__(self, **values: Any) -> None:
        names = [setting.name for setting in fields(self)]
        unknown = set(values) - set(names)
        if unknown:
            raise TypeError(f"Settings got unknown settings: {', '.join(sorted(unknown))}")
        environment = _environment()
        problems: list[tuple[str, str]] = []
        for setting in fields(self):
            name, variable = setting.name, f"CLUBTD_{setting.name.upper()}"
            if name in values:
                given = values[name]
            else:
                given = environment.get(variable.lower(), setting.default)
            try:
                object.__setattr__(self, name, _READERS[name](given))
            except ValueError as error:
                problems.append((variable, str(error)))
        if problems:
            raise SettingsError(problems)


def _environment() -> dict[str, str]:
    """Return the CLUBTD_ variables, names in lower case: the environment over `.env`."""
    found = {
        key.lower(): value
        for key, value in envfile.read(Path(".env")).items()
        if value is not None and key.lower().startswith("clubtd_")
    }
    found.update(
        (key.lower(), value)
        for key, value in os.environ.items()
        if key.lower().startswith("clubtd_")
    )
    return found


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{value!r}: give it as text")
    return value


def _optional_text(value: Any) -> str | None:
    return None if value is None else _text(value)


def _blank_is_unset(value: Any) -> str | None:
    value = _optional_text(value)
    return None if value is None or not value.strip() else value


def _secret(value: Any) -> SecretStr | None:
    if value is None or isinstance(value, SecretStr):
        return value
    return SecretStr(_text(value))


def _token(value: Any) -> SecretStr | None:
    """A blank token is no token: the adapter does not run."""
    return _secret(value if isinstance(value, SecretStr) else _blank_is_unset(value))


def _port(value: Any) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    try:
        return int(_text(value).strip())
    except ValueError:
        raise ValueError(f"{value!r}: give a port number, e.g. 8443") from None


def _role_id(value: Any) -> str | None:
    """A role is named by its id: a name (or a name that looks like an id) can be given
    to a new role by anyone who may manage roles."""
    role = _blank_is_unset(value)
    if role is None:
        return None
    if not re.fullmatch(r"[0-9]{1,22}", role.strip()):
        raise ValueError(
            f"CLUBTD_DISCORD_DIRECTOR_ROLE must be a role id (digits, from Discord's "
            f"'Copy Role ID'), not {role!r}: anyone who manages roles can copy a name"
        )
    return role.strip()


def _known_zone(value: Any) -> str:
    zone = _text(value)
    try:
        ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError):
        raise ValueError(f"unknown time zone {zone!r} (use an IANA name)") from None
    return zone


def _known_language(value: Any) -> str:
    language = _text(value)
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r} (one of {', '.join(LANGUAGES)})")
    return language


def _listen(value: Any) -> str | None:
    listen = _blank_is_unset(value)
    if listen is not None:
        listen_address(listen)
    return listen


def _web_url(value: Any) -> str | None:
    url = _blank_is_unset(value)
    if url is not None and not re.match(r"https?://[^/\s]+", url.strip()):
        raise ValueError(f"{url!r}: give the pages' public address, e.g. https://club.example.org")
    return None if url is None else url.strip().rstrip("/")


# How each setting is read from its text (or from the value given to Settings); a
# ValueError's message says what is wrong and how to write it.
_READERS: dict[str, Callable[[Any], Any]] = {
    "database_url": _text,
    "discord_token": _token,
    "discord_api_url": _optional_text,
    "discord_director_role": _role_id,
    "discord_shards": parse_shards,
    "telegram_token": _token,
    "telegram_api_url": _optional_text,
    "telegram_webhook_url": _optional_text,
    "telegram_webhook_secret": _secret,
    "telegram_webhook_listen": _text,
    "telegram_webhook_port": _port,
    "directors": parse_directors,
    "timezone": _known_zone,
    "language": _known_language,
    "web_listen": _listen,
    "web_url": _web_url,
}


DEFAULT_WEB_LISTEN = "127.0.0.1:8080"


def listen_address(text: str) -> tuple[str, int]:
    """Read `HOST:PORT` (`[::1]:8080` for IPv6); raise ValueError saying how to write it."""
    host, colon, port = text.strip().rpartition(":")
    host = host.strip("[]")
    if not colon or not host or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ValueError(f"{text!r}: write the address as HOST:PORT, e.g. 127.0.0.1:8080")
    return host, int(port)


def web_base(settings: Settings, listen: str | None = None) -> str:
    """Return the pages' public base URL: CLUBTD_WEB_URL, else http:// + where they listen."""
    if settings.web_url:
        return settings.web_url
    return "http://" + (listen or settings.web_listen or DEFAULT_WEB_LISTEN)
