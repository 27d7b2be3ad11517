"""Telegram's send limits: about 1 message/s per chat, 20 a minute per group, 30/s in all.

They are a setting of the shared pacer (`bot.sending.pacing`), keyed by the chat id as
text; a group's id is negative. Replies to a person's command go at once (they are
the conversation) but are recorded too, so the outbox sender's announcements make room.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from bot.sending.pacing import Window, WindowPacer


@dataclass(frozen=True, slots=True)
class Limits:
    per_chat_seconds: float = 1.0
    group_per_minute: int = 20
    per_second: int = 30

    def window(self) -> Window:
        """Return these limits as the shared pacer's window."""
        return Window(
            per_chat=1,
            seconds=self.per_chat_seconds,
            per_second=self.per_second,
            per_group=self.group_per_minute,
            group_seconds=60.0,
        )


def is_group(chat: str) -> bool:
    """Return whether a Telegram chat id (as text) is a group's: groups are negative."""
    return chat.startswith("-")


def pacer(limits: Limits, clock: Callable[[], float] = time.monotonic) -> WindowPacer:
    """Return the shared pacer set to Telegram's limits."""
    return WindowPacer(limits.window(), clock, is_group=is_group)
