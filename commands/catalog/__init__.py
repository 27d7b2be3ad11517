"""Message catalogs, one module per language, all with the keys of English."""

from __future__ import annotations

from commands.catalog import en, es, pl, ro
from commands.languages import LANGUAGES as LANGUAGES

CATALOGS: dict[str, dict[str, str]] = {
    "en": en.MESSAGES,
    "es": es.MESSAGES,
    "ro": ro.MESSAGES,
    "pl": pl.MESSAGES,
}


def template(language: str, key: str) -> str:
    """Return the template for `key`, in English when the language lacks it."""
    catalog = CATALOGS.get(language, en.MESSAGES)
    found = catalog.get(key) or en.MESSAGES.get(key)
    return found if found is not None else key
