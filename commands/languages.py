"""The languages the bot speaks, each with its message catalog in commands.catalog.

Apart from the catalogs: reading the settings checks a language against this list, and
`clubtd export` need not load ~2,900 lines of messages for it (issue 17, start-up).
"""

from __future__ import annotations

LANGUAGES: tuple[str, ...] = ("en", "es", "ro", "pl")


def language_of(tag: str | None) -> str | None:
    """Return the language the bot speaks for a platform's language tag ("es-ES", "pl",
    "es-419"), or None when it speaks none of it (or no tag came)."""
    if not tag:
        return None
    language = tag.replace("_", "-").split("-", 1)[0].lower()
    return language if language in LANGUAGES else None
