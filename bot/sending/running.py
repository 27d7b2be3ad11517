"""Run one command for an adapter: the use case, then a poke to the scheduler.

A command that changed something (it was not refused) may have moved a deadline, so
the scheduler is poked with the command's next deadline (None: it set none) and re-arms
its alarm, rather than sweeping every tournament after every command; the poke may be a
plain or an async function, and its failure is logged, never the command's.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Callable
from datetime import datetime

from commands.config import CommandConfig
from commands.dispatch import Response, handle
from commands.session import Invocation
from storage.unit_of_work import SqlUnitOfWorkFactory

log = logging.getLogger("clubtd.commands")

Poke = Callable[[datetime | None], object]


async def run_command(
    inv: Invocation,
    *,
    uow_factory: SqlUnitOfWorkFactory,
    config: CommandConfig,
    poke: Poke | None,
) -> Response | None:
    """Return the command's response (None: nothing to say, or a redelivery)."""
    response = await handle(inv, uow_factory=uow_factory, config=config)
    if response is not None and not response.refused and poke is not None:
        try:
            result = poke(response.deadline)
            if inspect.isawaitable(result):
                await result
        except Exception:
            log.exception("poke failed")
    return response
