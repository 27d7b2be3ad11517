"""Benchmark the public pages: a 64-player tournament's page, from state to HTML bytes.

Times what one render costs (the page store renders once per change of the club, so this
is the cost of a change, not of a visitor): build the page's views from the tournament
state (groups, the bracket, the schedule and results, placements), render the Jinja2
template with its QR code, encode it. The tournament is 64 players in groups of 4 (32
qualifiers), played halfway into its knockout. Also times the JSON answer (the export's
tournament object) and an answer from the cache (a visitor when nothing changed).
Prints best, p50 and p90 wall time and the p50 CPU time of this process.
Run: python -m bench.web
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
from collections.abc import Callable

from bench.pictures import timed  # the same warm-up and timing loop
from bot.web.pages import tournament_view
from bot.web.server import PageStore
from tests.pictures.tournaments import player_names, simulated
from tournament.club import Club

TOKEN = "0" * 32


def _store() -> PageStore:
    # Rendering needs neither the database nor the engine: the page is built from state.
    return PageStore(engine=None, uow_factory=None, base_url="https://club.example.org")  # type: ignore[arg-type]


def html_page() -> Callable[[], int]:
    state = simulated(64, size=4, qualifiers=2, waves=5)
    names = player_names(64)
    club = Club(id=1, name="HG Backgammon", timezone="Europe/Madrid", language="es")
    store = _store()

    def run() -> int:
        page = tournament_view(state, club, names, TOKEN)
        return len(store.tournament_html(page, "bench").encode())

    return run


def json_page() -> Callable[[], int]:
    state = simulated(64, size=4, qualifiers=2, waves=5)
    names = player_names(64)
    club = Club(id=1, name="HG Backgammon", timezone="Europe/Madrid", language="es")

    def run() -> int:
        page = tournament_view(state, club, names, TOKEN)
        return len(json.dumps(page.data, ensure_ascii=False).encode())

    return run


def cached_answer() -> Callable[[], int]:
    """A visitor while nothing changed: the version is fresh, the page is kept."""
    store = _store()
    html = html_page()
    body = b"x" * html()

    async def answer() -> int:
        page = await store.page(TOKEN, "1", "html")
        return len(page.body) if page is not None else 0

    from bot.web import server

    version = server._Version("v1", Club(1, "HG", "UTC", "en"), 0.0)
    store.clock = lambda: 0.0
    store._versions[TOKEN] = version
    kept = server._Rendered("v1", '"v1-html"', body, "text/html")
    store._pages[(TOKEN, "1", "html")] = server._Kept("v1", kept)

    def run() -> int:
        return asyncio.run(answer())

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=21)
    args = parser.parse_args()
    print(f"public pages benchmark, {args.runs} runs each")
    print(
        f"{'page (64 players)':<30} {'best':>9} {'p50':>9} {'p90':>9} {'CPU p50':>9} {'size':>8}"
    )
    for label, make in (
        ("tournament page, HTML", html_page),
        ("tournament page, JSON", json_page),
        ("cached answer (no change)", cached_answer),
    ):
        times, cpu, size = timed(make(), args.runs)
        p90 = statistics.quantiles(times, n=10)[-1]
        print(
            f"{label:<30} {min(times) * 1000:>7.1f}ms {statistics.median(times) * 1000:>7.1f}ms"
            f" {p90 * 1000:>7.1f}ms {statistics.median(cpu) * 1000:>7.1f}ms"
            f" {size / 1024:>6.0f}KB"
        )


if __name__ == "__main__":
    main()
