"""What the use cases need from the settings: its own module, so the composition root
and `clubtd export` read it without importing the whole command layer (issue 17)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class CommandConfig:
    """Settings the use cases need, read once by the composition root."""

    directors: frozenset[tuple[str, str]] = frozenset()  # (platform, user id)
    default_timezone: str = "UTC"
    default_language: str = "en"
    default_club_name: str = "Club"
    link_code_minutes: int = 60
    # The public pages' base URL (CLUBTD_WEB_URL), for the links the bot gives (§6).
    web_url: str = "http://127.0.0.1:8080"
