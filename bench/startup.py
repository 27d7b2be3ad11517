"""Benchmark the command line's start-up: whole `clubtd` calls, each a fresh process.

Makes the demo database once (`clubtd demo`), then times `clubtd export --format json`
on it, `clubtd console --script` with a one-line transcript (on a database of its own,
made in the first round) and `clubtd --help`, in turns, several runs each. Prints the
median and best wall time beside the goal of issue 17 (0.3 s a call) and the
interpreter alone (`python -c pass`). The first round only writes the bytecode caches
and the code of the dataclasses' methods (bot/dataclass_cache.py) under a temporary
PYTHONPYCACHEPREFIX, as an installed package has them after its first call, and is not
counted. Run: python -m bench.startup [--runs 7]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GOAL_S = 0.3
CLUBTD = "import sys; sys.argv[0] = 'clubtd'; from bot.cli import main; main()"


def environment(cache: Path) -> dict[str, str]:
    """Return the children's environment: this tree first, no CLUBTD_ setting, bytecode
    cached outside the tree."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLUBTD_")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env["PYTHONPYCACHEPREFIX"] = str(cache)
    return env


def call(args: list[str], env: dict[str, str], cwd: Path) -> float:
    """Run one fresh process; return its wall time in seconds."""
    began = time.perf_counter()
    subprocess.run(args, env=env, cwd=cwd, check=True, capture_output=True)
    return time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="timed runs of each call")
    runs = parser.parse_args().runs
    with tempfile.TemporaryDirectory(prefix="clubtd-startup-") as folder:
        work = Path(folder)
        env = environment(work / "pycache")
        python = [sys.executable, "-c", CLUBTD]
        print("making the demo database (clubtd demo)...", flush=True)
        call([*python, "demo", "--pictures", str(work / "pictures")], env, work)
        (work / "one.t").write_text('@club name:"Club"\n', encoding="utf-8")
        cases = {
            "python -c pass": [sys.executable, "-c", "pass"],
            "clubtd --help": [*python, "--help"],
            "clubtd export": [*python, "export", "--db", "sqlite:///clubtd-demo.db"],
            "clubtd console --script (1 line)": [
                *python,
                *("console", "--script", "one.t", "--db", "sqlite:///script.db"),
            ],
        }
        times: dict[str, list[float]] = {name: [] for name in cases}
        for round_ in range(runs + 1):
            for name, args in cases.items():
                took = call(args, env, work)
                if round_:
                    times[name].append(took)
    print(f"\n{'call':<34} {'median':>8} {'best':>8}   goal (issue 17)")
    for name, took in times.items():
        goal = f"<= {GOAL_S:.2f} s" if name.startswith("clubtd") else ""
        verdict = "" if not goal else ("met" if statistics.median(took) <= GOAL_S else "NOT met")
        print(f"{name:<34} {statistics.median(took):7.3f}s {min(took):7.3f}s   {goal} {verdict}")
    print(f"\n{runs} runs each, in turns; load average now {os.getloadavg()[0]:.2f}.")


if __name__ == "__main__":
    main()
