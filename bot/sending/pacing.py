"""A platform-neutral pacer: so many messages per window in one chat, and a global rate.

It only says when a chat may receive its next message and records what went out; the
platform's own answer (a retry-after) pauses a chat on top of that. A platform with a
stricter limit for group chats (Telegram: 20 a minute) sets the group window too.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Window:
    per_chat: int = 5  # messages ...
    seconds: float = 5.0  # ... per this many seconds in one chat
    per_second: int = 40  # across all chats
    per_group: int = 0  # and in a group chat at most this many ... (0: no such limit)
    group_seconds: float = 60.0  # ... per this many seconds


def every_chat(chat: str) -> bool:
    return True


class WindowPacer:
    """`is_group` says which chats the group window binds (every chat by default)."""

    def __init__(
        self,
        window: Window,
        clock: Callable[[], float] = time.monotonic,
        *,
        is_group: Callable[[str], bool] = every_chat,
    ) -> None:
        self.window = window
        self._clock = clock
        self._is_group = is_group
        self._sent: dict[str, deque[float]] = {}
        self._all: deque[float] = deque()
        self._paused: dict[str, float] = {}

    def delay(self, chat: str) -> float:
        """Return how many seconds `chat` must wait before its next message."""
        now = self._clock()
        w = self.window
        ready = max(now, self._paused.get(chat, now))
        sent = self._sent.get(chat)
        if sent is not None:
            keep = max(w.seconds, w.group_seconds if w.per_group > 0 else 0.0)
            _trim(sent, now - keep)
            ready = max(ready, _free(sent, w.per_chat, w.seconds, now))
            if w.per_group > 0 and self._is_group(chat):
                ready = max(ready, _free(sent, w.per_group, w.group_seconds, now))
        _trim(self._all, now - 1.0)
        ready = max(ready, _free(self._all, w.per_second, 1.0, now))
        return max(0.0, ready - now)

    def record(self, chat: str) -> None:
        """Note that a message went to `chat` now."""
        now = self._clock()
        self._sent.setdefault(chat, deque()).append(now)
        self._all.append(now)
        if len(self._sent) > 10_000:
            self._forget(now)

    def pause(self, chat: str, seconds: float) -> None:
        """Hold a chat back for `seconds` (the platform said so)."""
        self._paused[chat] = max(self._paused.get(chat, 0.0), self._clock() + seconds)

    def _forget(self, now: float) -> None:
        """Drop chats quiet for longer than any window: their limits no longer bind."""
        quiet = now - max(self.window.seconds, self.window.group_seconds, 1.0)
        for chat in [c for c, s in self._sent.items() if not s or s[-1] < quiet]:
            del self._sent[chat]
            if self._paused.get(chat, 0.0) < now:
                self._paused.pop(chat, None)


def _free(times: deque[float], count: int, seconds: float, now: float) -> float:
    """Return when one more message fits `count` per `seconds` (`times` oldest first)."""
    if count <= 0 or len(times) < count:
        return now
    # The count-th most recent message must have left the window; those before it too.
    inside = [at for at in times if at > now - seconds]
    if len(inside) < count:
        return now
    return inside[-count] + seconds


def _trim(times: deque[float], before: float) -> None:
    while times and times[0] <= before:
        times.popleft()
