"""The `clubtd` command line (INTERFACE §2)."""

from __future__ import annotations

import asyncio
import json
import logging
import sys
from collections.abc import Awaitable, Callable
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from bot.clock import Clock, RealClock

if TYPE_CHECKING:
    from rich.console import Console

    from bot.bootstrap import App
    from bot.settings import Settings
    from commands.ranking_import import Imported
    from tournament.club import Club

# Each command imports what it uses when it runs (issue 17: `export` needs neither the
# chat platforms, the pictures, the console nor `rich`).

DEMO_PICTURES = "clubtd-demo-pictures"

app = typer.Typer(
    name="clubtd",
    help="clubtd: a tournament director that lives in your club's chat.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
ranking_app = typer.Typer(help="Manage the club's ranking.", no_args_is_help=True)
app.add_typer(ranking_app, name="ranking")

DbOption = Annotated[
    str | None,
    typer.Option(
        "--db",
        metavar="URL",
        help="Database URL (default: the CLUBTD_DATABASE_URL setting, sqlite:///clubtd.db).",
    ),
]


class ExportFormat(StrEnum):
    json = "json"


def settings() -> Settings:
    """Read the settings: the one place the environment and `.env` are read."""
    from bot.settings import Settings, SettingsError

    try:
        return Settings()
    except SettingsError as error:
        lines = [f"  {name}: {message}" for name, message in error.problems]
        typer.echo("clubtd: invalid settings:\n" + "\n".join(lines), err=True)
        raise typer.Exit(2) from None


def with_app(
    db: str | None, work: Callable[[App], Awaitable[int]], *, clock: Clock | None = None
) -> int:
    """Build the app for `db`, run `work`, close the app; return its exit status."""
    from bot.bootstrap import build

    config = settings()

    async def main() -> int:
        built = await build(config, clock=clock or RealClock(), database_url=db)
        try:
            return await work(built)
        finally:
            await built.close()

    return asyncio.run(main())


@app.command()
def demo(
    pictures: Annotated[
        Path | None,
        typer.Option(
            "--pictures",
            metavar="DIR",
            help=f"Where the night's pictures go (default: ./{DEMO_PICTURES}).",
        ),
    ] = None,
) -> None:
    """Run a complete simulated club night in the console, on SQLite (clubtd-demo.db)."""
    from bot.demo.night import run_demo

    folder = pictures if pictures is not None else Path.cwd() / DEMO_PICTURES
    raise typer.Exit(asyncio.run(run_demo(settings(), Path.cwd(), pictures=folder)))


@app.command()
def run() -> None:
    """Start the adapters whose tokens are configured (Discord, Telegram)."""
    from bot.runner import serve

    logging.getLogger("clubtd").setLevel(logging.INFO)
    raise typer.Exit(serve(settings()))


@app.command()
def console(
    db: DbOption = None,
    as_name: Annotated[
        str | None,
        typer.Option("--as", metavar="NAME", help="Who types bare /commands (default: you)."),
    ] = None,
    script: Annotated[
        Path | None,
        typer.Option(
            "--script",
            metavar="FILE",
            help="Replay a transcript on a virtual clock instead of reading the keyboard.",
            exists=True,
            dir_okay=False,
            readable=True,
        ),
    ] = None,
    real_clock: Annotated[
        bool,
        typer.Option(
            "--real-clock",
            help="Run on the real time even on a database a transcript wrote "
            "(default: continue on its stored virtual clock).",
        ),
    ] = False,
    pictures: Annotated[
        Path | None,
        typer.Option(
            "--pictures",
            metavar="DIR",
            help="Write pictures (tables, brackets) to DIR and show them as "
            "[picture: NAME.png] lines.",
        ),
    ] = None,
) -> None:
    """Chat with the bot in the terminal, or replay a transcript with --script."""
    from bot.console import ConsoleBot, PlainOutput
    from bot.console_interactive import interactive
    from bot.transcript import run_script

    text = script.read_text(encoding="utf-8") if script is not None else None

    async def work(built: App) -> int:
        bot = ConsoleBot(
            uow_factory=built.uow_factory,
            config=built.config,
            outbox=built.outbox,
            output=PlainOutput(),
        )
        if text is not None:
            return await run_script(bot, text, pictures=pictures)
        if pictures is not None:
            await asyncio.to_thread(pictures.mkdir, parents=True, exist_ok=True)
            bot.pictures = pictures
        return await interactive(bot, built.clock.now, as_name=as_name, real_clock=real_clock)

    raise typer.Exit(with_app(db, work))


@app.command()
def web(
    db: DbOption = None,
    listen: Annotated[
        str | None,
        typer.Option(
            "--listen",
            metavar="HOST:PORT",
            help="Where to serve the pages (default: CLUBTD_WEB_LISTEN, else 127.0.0.1:8080).",
        ),
    ] = None,
) -> None:
    """Serve the public pages of the clubs in the database (turned on with /club web:on)."""
    from bot.settings import listen_address

    if listen is not None:
        try:
            listen_address(listen)
        except ValueError as error:
            typer.echo(f"clubtd: --listen {error}", err=True)
            raise typer.Exit(2) from None
    logging.getLogger("clubtd").setLevel(logging.INFO)

    async def work(built: App) -> int:
        server = built.web_server(listen)
        try:
            await server.start()
        except OSError as error:
            where = f"{server.host}:{server.port}"
            typer.echo(f"clubtd web: cannot listen on {where}: {error}", err=True)
            return 1
        typer.echo(
            f"clubtd web: serving the public pages on http://{server.host}:{server.port} "
            f"(links start with {server.store.base_url}/c/); Ctrl+C stops."
        )
        try:
            await _until_interrupted()
        finally:
            await server.stop()
        return 0

    raise typer.Exit(with_app(db, work))


async def _until_interrupted() -> None:
    import contextlib
    import signal

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(sig, stop.set)
    await stop.wait()


@app.command()
def export(
    db: DbOption = None,
    tournament: Annotated[
        str | None,
        typer.Option("--tournament", metavar="NAME", help="Export one tournament only."),
    ] = None,
    club: Annotated[
        str | None,
        typer.Option("--club", metavar="NAME", help="The club, when the database has several."),
    ] = None,
    fmt: Annotated[
        ExportFormat, typer.Option("--format", help="Output format.")
    ] = ExportFormat.json,
) -> None:
    """Write the club's state as JSON (players, ranking, tournaments) to stdout."""
    from bot.console_chat import CLUB_CHAT, PLATFORM
    from commands.export import ExportError, export_club, find_club

    async def work(built: App) -> int:
        async with built.uow_factory() as uow:
            try:
                found = await find_club(uow, club, console=(PLATFORM, CLUB_CHAT))
                data = await export_club(uow, found, tournament=tournament)
            except ExportError as error:
                typer.echo(f"clubtd: {error}", err=True)
                return 2
        sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
        return 0

    raise typer.Exit(with_app(db, work))


@ranking_app.command("import")
def ranking_import(
    file: Annotated[
        Path,
        typer.Argument(
            metavar="FILE.csv",
            help="CSV name,points (or name;points), best first; decimal point or comma.",
            exists=True,
            dir_okay=False,
            readable=True,
        ),
    ],
    db: DbOption = None,
    club: Annotated[
        str | None,
        typer.Option(
            "--club",
            metavar="NAME",
            help="The club; created with this name when the database has none yet.",
        ),
    ] = None,
    game: Annotated[
        str | None,
        typer.Option(
            "--game",
            metavar="GAME",
            help="backgammon or draughts (default: the club's only game, else backgammon).",
        ),
    ] = None,
    replace: Annotated[
        bool,
        typer.Option("--replace", help="Replace a ranking imported before for this game."),
    ] = False,
) -> None:
    """Load an existing club ranking: the season so far, best first; names match players."""
    from bot.console_chat import CLUB_CHAT, PLATFORM
    from commands.export import ExportError
    from commands.ranking_import import (
        GAMES,
        AlreadyImported,
        ClubDefaults,
        ImportFileError,
        club_for_import,
        club_game,
        decode,
        import_ranking,
        read_ranking,
    )

    if game is not None and game not in GAMES:
        typer.echo(f"clubtd: --game {game}: choose {' or '.join(GAMES)}", err=True)
        raise typer.Exit(2)
    try:
        rows = read_ranking(decode(file.read_bytes()))
    except ImportFileError as error:
        typer.echo(_problems(file, error), err=True)
        raise typer.Exit(2) from None
    from rich.console import Console
    from rich.text import Text

    out = Console()

    async def work(built: App) -> int:
        now = await _database_now(built)
        config = built.config
        first = ClubDefaults(
            config.default_club_name, config.default_timezone, config.default_language
        )
        try:
            found, created = await club_for_import(
                built.uow_factory, club, now, console=(PLATFORM, CLUB_CHAT), first=first
            )
        except ExportError as problem:
            typer.echo(f"clubtd: {problem}", err=True)
            return 2
        if created:
            out.print(
                Text(
                    f"Created the club {found.name} (time zone {found.timezone}, "
                    f"language {found.language}); change them in the chat with /club."
                )
            )
        async with built.uow_factory() as uow:
            chosen = game or await club_game(uow, found)
            try:
                done = await import_ranking(uow, found, rows, now, game=chosen, replace=replace)
            except (ImportFileError, AlreadyImported) as error:
                typer.echo(_problems(file, error), err=True)
                return 2
        _show_import(out, found, done)
        return 0

    raise typer.Exit(with_app(db, work))


def _show_import(out: Console, club: Club, done: Imported) -> None:
    """Print what an import stored: the table, and what was replaced or created."""
    from rich.table import Table
    from rich.text import Text

    table = Table(title=f"{club.name}: imported {done.game} ranking (season so far)")
    table.add_column("#", justify="right")
    table.add_column("player")
    table.add_column("points", justify="right")
    for place, (name, points) in enumerate(done.rows, 1):
        table.add_row(str(place), Text(name), f"{points:.2f}")
    out.print(table)
    if done.replaced:
        out.print(f"Replaced the earlier import ({done.replaced} players).")
    if done.created:
        count = len(done.created)
        out.print(
            f"{count} new {'player' if count == 1 else 'players'} without a chat account; "
            "they claim their name with /register."
        )
    out.print(
        "These points are carried over into the season ranking (/ranking) and seed the next draw."
    )


async def _database_now(built: App) -> datetime:
    """Return the database's virtual clock when transcripts run on it, else the real time."""
    from bot.console_chat import CLOCK_KEY

    async with built.uow_factory() as uow:
        stored = await uow.meta.get(CLOCK_KEY)
    return datetime.fromisoformat(stored) if stored else built.clock.now()


def _problems(file: Path, error: Exception) -> str:
    """Return an import error, one line per problem, each naming the file."""
    return "\n".join(f"clubtd: {file}: {line}" for line in str(error).splitlines())


def main() -> None:
    """Run the `clubtd` command line."""
    logging.basicConfig(
        level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    app()
