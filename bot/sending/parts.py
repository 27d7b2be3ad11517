"""A text longer than one message of a platform goes in parts, split at line ends.

A single line longer than a message is cut at its last space that fits, or anywhere
when it has none. `length` is how the platform counts (Telegram: UTF-16 code units,
Discord: characters). Markup that must stay balanced across parts (Telegram's HTML)
has its own splitter; this one is for markdown and plain text.
"""

from __future__ import annotations

from collections.abc import Callable


def split_lines(text: str, limit: int, length: Callable[[str], int] = len) -> list[str]:
    """Split `text` into parts of at most `limit`, as `length` counts; blank parts go."""
    parts: list[str] = []
    current = ""
    for line in text.split("\n"):
        while length(line) > limit:
            if current:
                parts.append(current)
                current = ""
            cut = _fitting(line, limit, length)
            space = line.rfind(" ", 0, cut)
            cut = space if space > 0 else cut
            parts.append(line[:cut])
            line = line[cut:].lstrip(" ")
        candidate = f"{current}\n{line}" if current else line
        if length(candidate) > limit:
            parts.append(current)
            current = line
        else:
            current = candidate
    parts.append(current)
    return [part for part in parts if part.strip()]


def _fitting(line: str, limit: int, length: Callable[[str], int]) -> int:
    """Return how many of `line`'s first characters fit in `limit` (at least one)."""
    low, high = 1, min(len(line), limit)  # a character counts at least 1
    while low < high:
        middle = (low + high + 1) // 2
        if length(line[:middle]) <= limit:
            low = middle
        else:
            high = middle - 1
    return low
