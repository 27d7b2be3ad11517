"""A platform-neutral pacer: so many messages per window in one chat, and a global rate.

It only says when a chat may receive its next message and records what went out; the
platform's own answer (a retry-after) pauses a chat on top of that.
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


class WindowPacer:
    def __init__(self, window: Window, clock: Callable[[], float] = time.monotonic) -> None:
        self.window = window
        self._clock = clock
        self._sent: dict[str, deque[float]] = {}
        self._all: deque[float] = deque()
        self._paused: dict[str, float] = {}

    def delay(self, chat: str) -> float:
        now = self._clock()
        ready = max(now, self._paused.get(chat, now))
        sent = self._sent.get(chat)
        if sent is not None:
            _trim(sent, now - self.window.seconds)
            if len(sent) >= self.window.per_chat > 0:
                ready = max(ready, sent[-self.window.per_chat] + self.window.seconds)
        _trim(self._all, now - 1.0)
        if len(self._all) >= self.window.per_second > 0:
            ready = max(ready, self._all[-self.window.per_second] + 1.0)
        return max(0.0, ready - now)

    def record(self, chat: str) -> None:
        now = self._clock()
        self._sent.setdefault(chat, deque()).append(now)
        self._all.append(now)
        if len(self._sent) > 10_000:
            for quiet in [c for c, s in self._sent.items() if not s or s[-1] < now - 60]:
                del self._sent[quiet]

    def pause(self, chat: str, seconds: float) -> None:
        self._paused[chat] = max(self._paused.get(chat, 0.0), self._clock() + seconds)


def _trim(times: deque[float], before: float) -> None:
    while times and times[0] <= before:
        times.popleft()
