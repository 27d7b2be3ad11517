"""Buttons that outlive the process: a button carries its command, or a stored token.

A platform limits what a button can carry (Telegram 64 bytes of callback data, Discord
100 characters of custom id); a longer command is stored under a short stable token in
the meta table, so a button pressed after a restart still runs what it said.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from storage.unit_of_work import SqlUnitOfWork

TOKEN_MARK = "#"


def token_for(command: str) -> str:
    """Return a stable short token for a command."""
    return TOKEN_MARK + hashlib.sha256(command.encode()).hexdigest()[:24]


class ButtonStore:
    """Map commands to what a button carries and back; `prefix` names the meta keys."""

    def __init__(
        self, uow_factory: Callable[[], SqlUnitOfWork], *, prefix: str, limit: int
    ) -> None:
        self._uow_factory = uow_factory
        self._prefix = prefix
        self._limit = limit
        self._known: dict[str, str] = {}

    def fits(self, command: str) -> bool:
        return command.startswith("/") and len(command.encode()) <= self._limit

    async def data_for(self, command: str) -> str:
        """Return what a button running `command` carries."""
        if self.fits(command):
            return command
        token = token_for(command)
        if self._known.get(token) != command:
            async with self._uow_factory() as uow:
                await uow.meta.set(self._prefix + token, command)
                await uow.commit()
            self._known[token] = command
        return token

    async def command_for(self, data: str) -> str | None:
        """Return the command a button's data means, or None for unknown data."""
        if data.startswith("/"):
            return data
        if not data.startswith(TOKEN_MARK):
            return None
        if data not in self._known:
            async with self._uow_factory() as uow:
                command = await uow.meta.get(self._prefix + data)
            if command is None:
                return None
            self._known[data] = command
        return self._known[data]
