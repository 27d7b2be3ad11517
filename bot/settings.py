"""Settings from the environment or `.env` (INTERFACE §5); read once, by the CLI."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Annotated, Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import BeforeValidator, SecretStr, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from commands.catalog import LANGUAGES

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


def secret_text(value: Any) -> str | None:
    """Return a setting that may be a pydantic SecretStr as plain text (None if blank):
    what an adapter reads its token and webhook secret with."""
    if value is None:
        return None
    text = value.get_secret_value() if hasattr(value, "get_secret_value") else str(value)
    return text.strip() or None


class Settings(BaseSettings):
    """Everything the bot reads from its environment; nothing else reads it."""

    model_config = SettingsConfigDict(
        env_prefix="CLUBTD_", env_file=".env", env_file_encoding="utf-8", extra="ignore"
    )

    database_url: str = "sqlite:///clubtd.db"
    discord_token: SecretStr | None = None
    # Another REST base (a rate-limit proxy, a test double); its gateway comes from it.
    discord_api_url: str | None = None
    # Members with this role (its numeric id) are directors, besides Manage Server.
    discord_director_role: str | None = None
    # A range of shards for this process (`0-1/4`); unset: all of them, as Discord advises.
    discord_shards: Annotated[Shards | None, NoDecode, BeforeValidator(parse_shards)] = None
    telegram_token: SecretStr | None = None
    telegram_api_url: str | None = None
    # Webhook mode instead of polling when a public URL is set (Telegram posts updates).
    telegram_webhook_url: str | None = None
    telegram_webhook_secret: SecretStr | None = None
    telegram_webhook_listen: str = "0.0.0.0"
    telegram_webhook_port: int = 8443
    # NoDecode: the environment holds "telegram:123,discord:456", not JSON.
    directors: Annotated[Directors, NoDecode, BeforeValidator(parse_directors)] = frozenset()
    timezone: str = "UTC"
    language: str = "en"
    # The public pages (INTERFACE §6): where `clubtd run` serves them, and the public
    # base URL of the links the bot gives (default: http:// + the listen address).
    web_listen: str | None = None
    web_url: str | None = None

    @field_validator("web_listen", "web_url", mode="before")
    @classmethod
    def _blank_web_is_unset(cls, value: Any) -> Any:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("web_listen")
    @classmethod
    def _listen_address(cls, value: str | None) -> str | None:
        if value is not None:
            listen_address(value)
        return value

    @field_validator("web_url")
    @classmethod
    def _web_url(cls, value: str | None) -> str | None:
        if value is not None and not re.match(r"https?://[^/\s]+", value.strip()):
            raise ValueError(
                f"{value!r}: give the pages' public address, e.g. https://club.example.org"
            )
        return None if value is None else value.strip().rstrip("/")

    @field_validator("discord_director_role")
    @classmethod
    def _role_id(cls, value: str | None) -> str | None:
        """A role is named by its id: a name (or a name that looks like an id) can be
        given to a new role by anyone who may manage roles."""
        if value is None or not value.strip():
            return None
        if not re.fullmatch(r"[0-9]{1,22}", value.strip()):
            raise ValueError(
                f"CLUBTD_DISCORD_DIRECTOR_ROLE must be a role id (digits, from Discord's "
                f"'Copy Role ID'), not {value!r}: anyone who manages roles can copy a name"
            )
        return value.strip()

    @field_validator("timezone")
    @classmethod
    def _known_zone(cls, value: str) -> str:
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(f"unknown time zone {value!r} (use an IANA name)") from None
        return value

    @field_validator("language")
    @classmethod
    def _known_language(cls, value: str) -> str:
        if value not in LANGUAGES:
            raise ValueError(f"unknown language {value!r} (one of {', '.join(LANGUAGES)})")
        return value

    @field_validator("telegram_token", "discord_token", mode="before")
    @classmethod
    def _blank_is_unset(cls, value: Any) -> Any:
        return None if isinstance(value, str) and not value.strip() else value


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
