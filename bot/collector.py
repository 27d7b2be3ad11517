"""Keep the garbage collector's full passes short in a process that runs for long.

CPython's full collection walks every object it tracks with the event loop stopped: in
bench.load at 200 clubs (~190,000 objects) one took 145 ms, and every command waiting
then waited that much longer (p99 100 ms against 44 ms without it). A club's data, the
cached tournaments and rosters, holds no reference cycle and is freed by reference
counting when it leaves a cache (tests/bot/test_collector.py), so what has lived a few
seconds is moved out of the collector's sight: every `FREEZE_EVERY` seconds the young
generations are collected (the cyclic garbage made meanwhile is freed) and what survived
is frozen. The automatic full passes then find almost nothing to walk.

What freezing keeps alive is a reference cycle that was alive at a freeze and died
after it: a closed connection's transport, mostly (~5 objects each). So every
`RECLAIM_EVERY` seconds everything is brought back in sight and collected: one full
pause an hour instead of one every few seconds of a busy night.
"""

from __future__ import annotations

import asyncio
import gc

FREEZE_EVERY = 5.0  # seconds
RECLAIM_EVERY = 3600.0  # seconds


async def freeze_survivors(
    every: float = FREEZE_EVERY, reclaim_every: float = RECLAIM_EVERY
) -> None:
    """Collect the young generations and freeze what survived, every `every` seconds;
    collect everything every `reclaim_every` seconds. Runs until cancelled."""
    loop = asyncio.get_running_loop()
    reclaimed = loop.time()
    while True:
        await asyncio.sleep(every)
        if loop.time() - reclaimed >= reclaim_every:
            frozen_garbage()
            reclaimed = loop.time()
        gc.collect(1)
        gc.freeze()


def frozen_garbage() -> int:
    """Bring the frozen objects back in sight and return how many unreachable objects a
    full collection found (what freezing had kept alive, and the rest)."""
    gc.unfreeze()
    return gc.collect()
