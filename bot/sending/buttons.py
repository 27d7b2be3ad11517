"""Buttons that outlive the process: a button carries its command, or a stored token.

A platform limits what a button can carry (Telegram 64 bytes of callback data, Discord
100 characters of custom id); a longer command is stored under a short stable token in
the button_tokens table (pruned with the other stores), so a button pressed after a
restart still runs what it said. Button commands are built by the use cases from
parsed values, never from typed text, so the tokens stay few and small; the in-memory
copy keeps only the most recent ones. Discord's first tokens were kept in the meta table
(under the same key); a store made with `legacy_meta` still finds those, and copies each
into the table the first time it is pressed.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Callable
from datetime import UTC, datetime

from storage.unit_of_work import SqlUnitOfWorkFactory

TOKEN_MARK = "#"
REMEMBERED = 2048  # tokens kept in memory; the table has them all


def token_for(command: str) -> str:
    """Return a stable short token for a command."""
    return TOKEN_MARK + hashlib.sha256(command.encode()).hexdigest()[:24]


class ButtonStore:
    """Map commands to what a button carries and back.

    `limit` is how many bytes a button carries; `prefix` is put before a token's key in
    the table (Telegram's tokens were stored without one, and stay so); `legacy_meta`:
    look a token missing from the table up in the meta table too, where buttons posted
    before the table was used keep theirs.
    """

    def __init__(
        self,
        uow_factory: SqlUnitOfWorkFactory,
        *,
        limit: int,
        prefix: str = "",
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
        remembered: int = REMEMBERED,
        legacy_meta: bool = False,
    ) -> None:
        self._uow_factory = uow_factory
        self._prefix = prefix
        self._limit = limit
        self._clock = clock
        self._remembered = remembered
        self._legacy_meta = legacy_meta
        self._known: OrderedDict[str, str] = OrderedDict()

    def fits(self, command: str) -> bool:
        """Return whether a button can carry `command` itself."""
        return command.startswith("/") and len(command.encode()) <= self._limit

    async def data_for(self, command: str) -> str:
        """Return what a button running `command` carries."""
        if self.fits(command):
            return command
        token = token_for(command)
        if self._known.get(token) != command:
            async with self._uow_factory() as uow:
                await uow.buttons.put(self._prefix + token, command, self._clock())
                await uow.commit()
        self._keep(token, command)
        return token

    async def command_for(self, data: str) -> str | None:
        """Return the command a button's data means, or None for unknown data."""
        if data.startswith("/"):
            return data
        if not data.startswith(TOKEN_MARK):
            return None
        command = self._known.get(data)
        if command is None:
            async with self._uow_factory() as uow:
                command = await uow.buttons.get(self._prefix + data)
                if command is None and self._legacy_meta:
                    command = await uow.meta.get(self._prefix + data)
                    if command is not None:  # into the table: found there from now on
                        await uow.buttons.put(self._prefix + data, command, self._clock())
                        await uow.commit()
            if command is None:
                return None
        self._keep(data, command)
        return command

    def _keep(self, token: str, command: str) -> None:
        self._known[token] = command
        self._known.move_to_end(token)
        while len(self._known) > self._remembered:
            self._known.popitem(last=False)
