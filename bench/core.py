"""Benchmark the pure core: whole tournaments simulated in memory.

Draw, every group match, the knockout, placements and ranking points, through the same
rule functions a real night uses. Prints wall time (best and median of several runs)
and peak memory (tracemalloc) for 46, 512 and 4,096 players beside the peer measured in
the same run (brackets-manager.js, warm, in memory: bench/peer/brackets.mjs, when Node.js
and `npm ci --prefix bench/peer` are there) and the goal of issue 17 (a third of the
peer), how the time grows against n log n, and what one `settle` costs after a single
result (as after a `/report`) at 46 players. Run: python -m bench.core
"""

from __future__ import annotations

import argparse
import gc
import itertools
import json
import math
import random
import shutil
import statistics
import subprocess
import time
import tracemalloc
from datetime import UTC, datetime, timedelta
from pathlib import Path

from tournament import progress, reports
from tournament.model import MatchStatus, TournamentStatus
from tournament.preset import load_preset
from tournament.simulation import new_tournament, play_out, random_score

START = datetime(2026, 1, 31, 20, 0, tzinfo=UTC)
# Issue 17: a whole tournament at most a third of the warm peer, and one settle under 50
# microseconds. The issue's own peer figures (2.1 / 55 / 2,265 ms) stand in when the peer
# cannot run here.
PEER = Path(__file__).with_name("peer")
ISSUE_PEER_MS = {46: 2.1, 512: 55.0, 4096: 2265.0}
SETTLE_GOAL_US = 50.0


def run_once(preset: str, players: int, seed: int) -> float:
    state = new_tournament(load_preset(preset), players, START, seed=seed)
    gc.collect()
    began = time.perf_counter()
    play_out(state, seed=seed)
    return time.perf_counter() - began


def settle_times(preset: str, players: int, seed: int) -> list[float]:
    """Return how long each settle took when results come in one at a time."""
    state = new_tournament(load_preset(preset), players, START, seed=seed)
    progress.draw(state, tuple(sorted(state.entries)), START)
    rng = random.Random(seed)
    at = START
    took: list[float] = []
    while state.status is not TournamentStatus.FINISHED:
        ready = [
            m
            for m in state.matches.values()
            if m.is_ready and not m.is_final and m.status is not MatchStatus.DISPUTED
        ]
        if not ready:
            raise RuntimeError(f"stuck in {state.status}")
        at += timedelta(minutes=1)
        match = min(ready, key=lambda m: m.number)
        score = random_score(state.preset, match, rng)
        reports.record_result(state, match, score, at, how="director", settle=False)
        began = time.perf_counter()
        progress.settle(state, at)
        took.append(time.perf_counter() - began)
    return took


def peak_memory(preset: str, players: int) -> int:
    tracemalloc.start()
    state = new_tournament(load_preset(preset), players, START, seed=1)
    play_out(state, seed=1)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak


def peer_times(sizes: list[int], runs: int) -> dict[int, float] | None:
    """Return the peer's best time per size in ms, or None when Node.js or its packages
    are missing."""
    node = shutil.which("node")
    if node is None or not (PEER / "node_modules" / "brackets-manager").is_dir():
        return None
    done = subprocess.run(
        [node, str(PEER / "brackets.mjs"), *map(str, sizes), str(runs)],
        capture_output=True,
        text=True,
        check=True,
        cwd=PEER,
    )
    return {int(size): best for size, best in json.loads(done.stdout).items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--preset", default="navodari-table")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--sizes", default="46,512,4096")
    args = parser.parse_args()
    run_once(args.preset, 46, 0)  # warm up imports and caches
    sizes_asked = [int(s) for s in args.sizes.split(",")]
    measured = peer_times(sizes_asked, args.runs)
    peers = measured or ISSUE_PEER_MS
    source = "measured now" if measured else "the issue's figures: npm ci --prefix bench/peer"
    print(f"core benchmark, preset {args.preset}, {args.runs} runs each; peer {source}")
    print(
        f"{'players':>8} {'best':>10} {'median':>10} {'peer':>10} {'goal':>10}"
        f" {'vs peer':>8} {'peak memory':>12}"
    )
    best: dict[int, float] = {}
    for players in sizes_asked:
        times = [run_once(args.preset, players, seed) for seed in range(args.runs)]
        peak = peak_memory(args.preset, players)
        best[players] = min(times)
        peer = peers.get(players)
        cells = (
            (f"{peer:.1f}ms", f"{peer / 3:.1f}ms", f"{min(times) * 1000 / peer:.2f}x")
            if peer
            else ("-", "-", "-")
        )
        print(
            f"{players:>8} {min(times) * 1000:>8.1f}ms {statistics.median(times) * 1000:>8.1f}ms"
            f" {cells[0]:>10} {cells[1]:>10} {cells[2]:>8} {peak / 2**20:>10.1f}MB"
        )
    sizes = sorted(best)
    for small, large in itertools.pairwise(sizes):
        nlogn = (large * math.log(large)) / (small * math.log(small))
        print(
            f"growth {small} -> {large}: x{best[large] / best[small]:.1f}"
            f" (n log n: x{nlogn:.1f}, n^2: x{(large / small) ** 2:.0f})"
        )
    settles = sorted(t for seed in range(args.runs) for t in settle_times(args.preset, 46, seed))
    p50 = statistics.median(settles) * 1e6
    p99 = settles[min(len(settles) - 1, int(len(settles) * 0.99))] * 1e6
    print(
        f"settle after one result, 46 players: p50 {p50:.0f}us p99 {p99:.0f}us"
        f" (goal {SETTLE_GOAL_US:.0f}us), {len(settles)} settles"
    )


if __name__ == "__main__":
    main()
