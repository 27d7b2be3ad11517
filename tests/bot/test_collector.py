"""Freezing what survives keeps full collections short (bot/collector.py); it rests on
a club's cached data holding no reference cycle, and gives back what it kept alive."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from bot.collector import freeze_survivors, frozen_garbage
from storage.repositories import codec
from tournament.preset import load_preset
from tournament.simulation import new_tournament, play_out


class _Probe:
    """Something a weak reference can watch, put where a cached state holds things."""


@pytest.fixture
def collector_off() -> Iterator[None]:
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.unfreeze()
        if was:
            gc.enable()


def test_a_cached_tournament_and_its_rows_are_freed_without_the_collector(
    collector_off: None,
) -> None:
    state = new_tournament(
        load_preset("hgv-backgammon"), 16, datetime(2026, 1, 31, 20, 0, tzinfo=UTC), seed=1
    )
    play_out(state, seed=1)
    state.id = 1
    state.indexed()
    rows = codec.rows_of(state, 3)
    again = codec.restore(rows, 1)  # what a reader gets
    probes = [_Probe() for _ in range(3)]
    watched = [weakref.ref(p) for p in probes]
    # Hung where a cycle through the state or its rows would keep them alive.
    state.matches[1].report = probes[0]  # type: ignore[assignment]
    rows.matches[1]["report"] = probes[1]
    again.matches[1].report = probes[2]  # type: ignore[assignment]
    del probes, state, rows, again
    assert [ref() for ref in watched] == [None, None, None]  # reference counting did it


def _cycle() -> tuple[list[_Probe], weakref.ref[_Probe]]:
    """Return a reference cycle, held only by the list, and a weak reference to it; with
    nothing frozen yet."""
    gc.unfreeze()
    gc.collect()
    held = [_Probe()]
    held[0].self = held[0]  # type: ignore[attr-defined]
    return held, weakref.ref(held[0])


async def _until(condition: object, seconds: float = 1.0) -> bool:
    for _ in range(int(seconds / 0.01)):
        if condition():  # type: ignore[operator]
            return True
        await asyncio.sleep(0.01)
    return False


async def test_a_cycle_frozen_alive_outlives_full_collections_until_reclaimed(
    collector_off: None,
) -> None:
    held, watched = _cycle()
    task = asyncio.create_task(freeze_survivors(every=0.01, reclaim_every=3600))
    assert await _until(lambda: gc.get_freeze_count() > 0)
    held.clear()  # the cycle dies, frozen
    gc.collect()
    assert watched() is not None  # a full pass does not see it: what freezing costs
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    assert frozen_garbage() >= 1
    assert watched() is None and gc.get_freeze_count() == 0


async def test_the_frozen_are_collected_again_on_schedule(collector_off: None) -> None:
    held, watched = _cycle()
    task = asyncio.create_task(freeze_survivors(every=0.01, reclaim_every=0.1))
    assert await _until(lambda: gc.get_freeze_count() > 0)
    held.clear()
    assert await _until(lambda: watched() is None)  # the next reclaim found it
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
