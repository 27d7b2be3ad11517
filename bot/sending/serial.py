"""Run one person's commands in order while different people's run concurrently."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Hashable


class PerKey:
    """A lock per key that disappears when nobody holds or waits for it."""

    def __init__(self) -> None:
        self._locks: dict[Hashable, asyncio.Lock] = {}
        self._holders: dict[Hashable, int] = {}

    @contextlib.asynccontextmanager
    async def hold(self, key: Hashable) -> AsyncIterator[None]:
        lock = self._locks.setdefault(key, asyncio.Lock())
        self._holders[key] = self._holders.get(key, 0) + 1
        try:
            async with lock:
                yield
        finally:
            self._holders[key] -= 1
            if not self._holders[key]:
                del self._holders[key]
                self._locks.pop(key, None)
