"""Interactions first: the outbox sender gives way while a person waits for an answer.

The sender and the commands share the event loop and (on SQLite) the one database
connection. A command that arrives while the sender posts a round of announcements
waits for the loop at every step the sender takes; the sender instead waits, before
each claim and each row, until no command is being answered, at most `patience`
seconds (so a steady stream of commands delays the news, never stops them).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator


class Foreground:
    """Counts the commands being answered; `give_way` waits until there are none."""

    def __init__(self, *, patience: float = 0.5) -> None:
        self.patience = patience
        self._busy = 0
        self._idle = asyncio.Event()
        self._idle.set()

    @property
    def busy(self) -> bool:
        return self._busy > 0

    @contextlib.contextmanager
    def answering(self) -> Iterator[None]:
        """Hold the sender back while the block runs (a command and its answer)."""
        self._busy += 1
        self._idle.clear()
        try:
            yield
        finally:
            self._busy -= 1
            if not self._busy:
                self._idle.set()

    async def give_way(self) -> None:
        """Return once no command is being answered, or after `patience` seconds."""
        if self._busy:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._idle.wait(), timeout=self.patience)
