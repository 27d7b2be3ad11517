"""Benchmark the pictures: a 12-player group stage and a 64-player bracket, to PNG bytes.

Times the whole path an adapter takes: build the view from the tournament state, draw
it, encode the PNG. The group stage is its four group tables; the bracket is the
knockout of 96 players in 32 groups (64 qualifiers), half played. Target: under 100 ms
each. Prints best and median wall time of several runs, and the median CPU time of this
process (what the wall time would be on an idle machine: the CI box is shared).
Run: python -m bench.pictures
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time
from collections.abc import Callable

from bot.pictures import draw
from commands.pictures import bracket_view, group_view
from tests.pictures.tournaments import player_names, simulated


def group_stage() -> Callable[[], int]:
    state = simulated(12, waves=2)
    names = player_names(12)

    def run() -> int:
        return sum(len(draw(group_view(state, g, names), "en", "UTC").png()) for g in state.groups)

    return run


def bracket_64() -> Callable[[], int]:
    state = simulated(96, qualifiers=2, waves=6)
    names = player_names(96)

    def run() -> int:
        view = bracket_view(state, names)
        assert view is not None
        return len(draw(view, "en", "UTC").png())

    return run


def timed(run: Callable[[], int], runs: int) -> tuple[list[float], list[float], int]:
    size = run()  # warm up fonts and caches
    times, cpu = [], []
    for _ in range(runs):
        gc.collect()
        began, began_cpu = time.perf_counter(), time.process_time()
        run()
        times.append(time.perf_counter() - began)
        cpu.append(time.process_time() - began_cpu)
    return times, cpu, size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    print(f"pictures benchmark, {args.runs} runs each (target: under 100 ms)")
    print(f"{'picture':<28} {'best':>9} {'median':>9} {'CPU':>9} {'PNG':>9}")
    for label, make in (
        ("12-player group stage (4)", group_stage),
        ("64-player bracket", bracket_64),
    ):
        times, cpu, size = timed(make(), args.runs)
        print(
            f"{label:<28} {min(times) * 1000:>7.1f}ms {statistics.median(times) * 1000:>7.1f}ms"
            f" {statistics.median(cpu) * 1000:>7.1f}ms {size / 1024:>7.0f}KB"
        )


if __name__ == "__main__":
    main()
