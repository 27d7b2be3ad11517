"""Benchmark the pure core: whole tournaments simulated in memory.

Draw, every group match, the knockout, placements and ranking points, through the same
rule functions a real night uses. Prints wall time (best and median of several runs)
and peak memory (tracemalloc) for 46, 512 and 4,096 players. Run: python -m bench.core
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time
import tracemalloc
from datetime import UTC, datetime

from tournament.preset import load_preset
from tournament.simulation import new_tournament, play_out

START = datetime(2026, 1, 31, 20, 0, tzinfo=UTC)


def run_once(preset: str, players: int, seed: int) -> float:
    state = new_tournament(load_preset(preset), players, START, seed=seed)
    gc.collect()
    began = time.perf_counter()
    play_out(state, seed=seed)
    return time.perf_counter() - began


def peak_memory(preset: str, players: int) -> int:
    tracemalloc.start()
    state = new_tournament(load_preset(preset), players, START, seed=1)
    play_out(state, seed=1)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--preset", default="hgv-backgammon")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--sizes", default="46,512,4096")
    args = parser.parse_args()
    run_once(args.preset, 46, 0)  # warm up imports and caches
    print(f"core benchmark, preset {args.preset}, {args.runs} runs each")
    print(f"{'players':>8} {'best':>10} {'median':>10} {'peak memory':>12}")
    for players in (int(s) for s in args.sizes.split(",")):
        times = [run_once(args.preset, players, seed) for seed in range(args.runs)]
        peak = peak_memory(args.preset, players)
        print(
            f"{players:>8} {min(times) * 1000:>8.1f}ms {statistics.median(times) * 1000:>8.1f}ms"
            f" {peak / 2**20:>10.1f}MB"
        )


if __name__ == "__main__":
    main()
