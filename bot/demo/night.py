"""Run the bundled club night (night.transcript) on a fresh SQLite file, narrated.

The club first imports its ranking from before the bot (ranking.csv), so the snake
draw seeds everyone by it and the night goes the same way every time. `##` lines of
the transcript are printed as headings; what people type is shown dimmed, the bot's
messages as the console prints them.
"""

from __future__ import annotations

import asyncio
import os
import re
import time
from importlib import resources
from pathlib import Path

from rich.console import Console
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from bot.bootstrap import build
from bot.clock import RealClock
from bot.console import ConsoleBot
from bot.grammar import CommandStep, NarrationStep, Step, TranscriptError, parse_script
from bot.settings import Settings
from bot.transcript import TranscriptRunner
from commands.export import export_club
from commands.ranking_import import import_ranking, read_ranking
from commands.web import club_path, join, tournament_path

DEMO_DB = "clubtd-demo.db"
_STAMP = re.compile(r"^\[(\d\d:\d\d)\] ([#@][^:]*): ")


def demo_file(name: str) -> str:
    """Return a file bundled with the demo."""
    return resources.files("bot.demo").joinpath(name).read_text(encoding="utf-8")


class RichOutput:
    """Narrate a transcript: headings, what people type, what the bot says."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.messages = 0

    def message(self, text: str) -> None:
        self.messages += 1
        first, *rest = text.split("\n")
        line = Text()
        found = _STAMP.match(first)
        if found:
            place = found.group(2)
            line.append(f"[{found.group(1)}] ", style="dim")
            line.append(place, style="bold cyan" if place.startswith("#") else "bold magenta")
            line.append(": " + first[found.end() :])
        else:
            line.append(first)
        for more in rest:
            line.append("\n" + more, style="green" if more.strip().startswith("[") else "")
        self.console.print(line, highlight=False, soft_wrap=True)

    def typed(self, line: str) -> None:
        self.console.print(
            Text("        > " + line, style="dim italic"), highlight=False, soft_wrap=True
        )

    def narration(self, text: str) -> None:
        self.console.print()
        self.console.print(Rule(Text(text, style="bold yellow"), align="left"))


async def run_demo(
    settings: Settings,
    workdir: Path,
    *,
    pictures: Path | None = None,
    console: Console | None = None,
) -> int:
    """Play the demo night in `workdir`; return the exit status."""
    console = console or Console()
    started = time.perf_counter()
    path = await asyncio.to_thread(_fresh_files, workdir, pictures)
    try:
        steps = with_pages_on(parse_script(demo_file("night.transcript")))
    except TranscriptError as error:
        console.print(Text(f"clubtd demo: night.transcript {error.message}", style="red"))
        return 2
    console.print(Rule(Text("clubtd demo: a club night on SQLite", style="bold")))
    console.print(Text(f"database: {path}", style="dim"))
    app = await build(settings, clock=RealClock(), database_url=f"sqlite:///{path}")
    try:
        output = RichOutput(console)
        bot = ConsoleBot(
            uow_factory=app.uow_factory,
            config=app.config,
            outbox=app.outbox,
            output=output,
            pictures=pictures,
        )
        runner = TranscriptRunner(bot)
        await runner.open()
        club = bot.club
        rows = read_ranking(demo_file("ranking.csv"))
        async with app.uow_factory() as uow:
            await import_ranking(uow, club, rows, runner.now)
        output.narration("Before the bot: the club imports its ranking (clubtd ranking import)")
        console.print(
            Text(", ".join(f"{r.name} {r.points}" for r in rows), style="dim"), highlight=False
        )
        try:
            await runner.run(steps)
        except TranscriptError as error:
            console.print(Text(f"clubtd demo: night.transcript {error.message}", style="red"))
            return 2
        async with app.uow_factory() as uow:
            data = await export_club(uow, bot.club)
            token = await uow.clubs.web_token(bot.club.id)
            listed = await uow.tournaments.list(bot.club.id)
        written = bot.written
        base = app.config.web_url
    finally:
        await app.close()
    _summary(console, data)
    elapsed = time.perf_counter() - started
    if pictures is not None:
        console.print(
            Text(
                f"{len(written)} pictures (group tables, the bracket, cards, the ranking) "
                f"are in {pictures}{os.sep}: open them to see what the club's chat sees.",
                style="bold",
            ),
            highlight=False,
        )
    console.print(
        Text(
            f"{output.messages} bot messages in {elapsed:.1f} s. The night is in {path}: "
            f"try `clubtd export --db sqlite:///{DEMO_DB} --format json`, or chat on with "
            f"`clubtd console --db sqlite:///{DEMO_DB} --as ana`.",
            style="dim",
        ),
        highlight=False,
    )
    if token is not None:
        links = [join(base, club_path(token))]
        links += [join(base, tournament_path(token, t.id)) for t in listed]
        console.print(
            Text(
                f"The club's public pages are on. Serve them with "
                f"`clubtd web --db sqlite:///{DEMO_DB}`, then open:\n  " + "\n  ".join(links),
                style="bold",
            ),
            highlight=False,
        )
    return 0


def with_pages_on(steps: list[tuple[int, Step]]) -> list[tuple[int, Step]]:
    """Return the night with the director turning the public pages on (INTERFACE §6)
    before the first command, so the draw and the final carry the page's link."""
    first = next((i for i, (_, step) in enumerate(steps) if isinstance(step, CommandStep)), 0)
    line = steps[first][0] if steps else 1
    pages: list[tuple[int, Step]] = [
        (line, NarrationStep("The director publishes the club's live pages")),
        (line, CommandStep("ana", False, "/club web:on")),
    ]
    return steps[:first] + pages + steps[first:]


def _fresh_files(workdir: Path, pictures: Path | None) -> Path:
    """Delete the previous demo database; return where the new one goes."""
    path = workdir / DEMO_DB
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    if pictures is not None:
        pictures.mkdir(parents=True, exist_ok=True)
    return path


def _summary(console: Console, data: dict[str, object]) -> None:
    tournaments = data.get("tournaments")
    if not isinstance(tournaments, list) or not tournaments:
        return
    last = tournaments[-1]
    console.print()
    table = Table(title=f"{last['name']}: final places and ranking points")
    table.add_column("place", justify="right")
    table.add_column("player")
    table.add_column("points", justify="right")
    points = {p["name"]: p["points"] for p in last["ranking_points"]}
    for placement in last["placements"]:
        place = placement["place"]
        table.add_row(
            "-" if place is None else str(place),
            Text(placement["name"]),
            f"{points.get(placement['name'], 0):.2f}",
        )
    console.print(table)
    ranking = data.get("ranking")
    if isinstance(ranking, list) and ranking:
        season = Table(title="Season ranking")
        season.add_column("#", justify="right")
        season.add_column("player")
        season.add_column("points", justify="right")
        season.add_column("tournaments", justify="right")
        for row in ranking:
            season.add_row(
                str(row["rank"]),
                Text(row["name"]),
                f"{row['points']:.2f}",
                str(row["tournaments"]),
            )
        console.print(season)
