"""Telegram's send limits: about 1 message/s per chat, 20 a minute per group, 30/s in all.

The pacer only says when a chat may receive its next message and records what went
out. Replies to a person's command go at once (they are the conversation) but are
recorded too, so the outbox sender's announcements make room for them.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Limits:
    per_chat_seconds: float = 1.0
    group_per_minute: int = 20
    per_second: int = 30


class Pacer:
    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self._clock = clock
        self._last: dict[int, float] = {}
        self._group: dict[int, deque[float]] = {}
        self._all: deque[float] = deque()
        self._paused: dict[int, float] = {}

    def delay(self, chat_id: int) -> float:
        """Return how many seconds `chat_id` must wait before its next message."""
        now = self._clock()
        ready = now
        last = self._last.get(chat_id)
        if last is not None:
            ready = max(ready, last + self.limits.per_chat_seconds)
        ready = max(ready, self._paused.get(chat_id, now))
        sent = self._group.get(chat_id)
        if chat_id < 0 and sent is not None:
            self._trim(sent, now - 60.0)
            if len(sent) >= self.limits.group_per_minute > 0:
                ready = max(ready, sent[-self.limits.group_per_minute] + 60.0)
        self._trim(self._all, now - 1.0)
        if len(self._all) >= self.limits.per_second > 0:
            ready = max(ready, self._all[-self.limits.per_second] + 1.0)
        return max(0.0, ready - now)

    def record(self, chat_id: int) -> None:
        """Note that a message went to `chat_id` now."""
        now = self._clock()
        self._last[chat_id] = now
        self._all.append(now)
        if chat_id < 0:
            self._group.setdefault(chat_id, deque()).append(now)
        if len(self._last) > 10_000:
            self._forget(now)

    def pause(self, chat_id: int, seconds: float) -> None:
        """Hold a chat back for `seconds` (Telegram said so with retry_after)."""
        self._paused[chat_id] = max(self._paused.get(chat_id, 0.0), self._clock() + seconds)

    @staticmethod
    def _trim(times: deque[float], before: float) -> None:
        while times and times[0] <= before:
            times.popleft()

    def _forget(self, now: float) -> None:
        """Drop chats quiet for a minute: their limits no longer bind."""
        quiet = [c for c, at in self._last.items() if at < now - 60.0]
        for chat in quiet:
            self._last.pop(chat, None)
            self._group.pop(chat, None)
            if self._paused.get(chat, 0.0) < now:
                self._paused.pop(chat, None)
