"""Yes and no as a club types them, in its four languages: the one parser every yes/no
reads (club settings, /tournament new's switches, preset overrides)."""

from __future__ import annotations

YES_WORDS = frozenset({"yes", "y", "true", "on", "1", "si", "sí", "da", "tak"})
NO_WORDS = frozenset({"no", "n", "false", "off", "0", "nu", "nie"})


def yes_no(text: str) -> bool | None:
    """Return the yes or no `text` means, in any of the club languages, or None."""
    lowered = text.strip().lower().rstrip(".!")
    if lowered in YES_WORDS:
        return True
    if lowered in NO_WORDS:
        return False
    return None
