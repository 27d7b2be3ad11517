"""A per-person command throttle: a few commands in a burst, then one every few seconds.

Someone who sends commands faster than that gets one polite refusal, then silence until
the bucket refills; answering every extra command would spam the group the throttle
protects. Platform-neutral: an adapter asks `allow(key)` before running a command.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum


class Verdict(Enum):
    RUN = "run"
    REFUSE = "refuse"  # say once that they should slow down
    IGNORE = "ignore"  # already told: drop it quietly


@dataclass(frozen=True, slots=True)
class Rate:
    burst: int = 6  # commands in a row
    per_command: float = 3.0  # seconds that earn one more (20 a minute)


@dataclass(slots=True)
class _Bucket:
    tokens: float
    at: float
    told: bool = False


class Throttle:
    """Token buckets per key (a person), bounded in number."""

    def __init__(
        self,
        rate: Rate = Rate(),
        *,
        clock: Callable[[], float] = time.monotonic,
        size: int = 10_000,
    ) -> None:
        self.rate = rate
        self._clock = clock
        self._size = size
        self._buckets: OrderedDict[str, _Bucket] = OrderedDict()

    def allow(self, key: str) -> Verdict:
        if self.rate.burst <= 0:
            return Verdict.RUN
        now = self._clock()
        bucket = self._buckets.pop(key, None) or _Bucket(float(self.rate.burst), now)
        earned = (now - bucket.at) / self.rate.per_command if self.rate.per_command else 1e9
        bucket.tokens = min(float(self.rate.burst), bucket.tokens + max(earned, 0.0))
        bucket.at = now
        self._buckets[key] = bucket
        while len(self._buckets) > self._size:
            self._buckets.popitem(last=False)  # the longest quiet: its bucket is full anyway
        if bucket.tokens >= 1.0:
            bucket.tokens -= 1.0
            bucket.told = False
            return Verdict.RUN
        if bucket.told:
            return Verdict.IGNORE
        bucket.told = True
        return Verdict.REFUSE
