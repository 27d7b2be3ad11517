"""The `clubtd` command line (INTERFACE §2).

Parsed with argparse: typer cost ~90 ms of every call (it loads pydantic to coerce
each option), a third of the start-up issue 17 allows; the commands, options, help
texts and exit statuses (2 for a usage error) are those it had.
"""

from __future__ import annotations

import argparse
import gc
import json
import logging
import sys
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from bot.clock import Clock, RealClock

if TYPE_CHECKING:
    from rich.console import Console

    from bot.bootstrap import App
    from bot.settings import Settings
    from commands.ranking_import import Imported
    from tournament.club import Club

# Each command imports what it uses when it runs (issue 17: `export` needs neither the
# chat platforms, the pictures, the console nor `rich`; `--help` not even asyncio).

DEMO_PICTURES = "clubtd-demo-pictures"
DB_HELP = "Database URL (default: the CLUBTD_DATABASE_URL setting, sqlite:///clubtd.db)."


class Failed(Exception):
    """A command stops with this exit status after saying why on stderr."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


def fail(message: str, status: int = 2) -> Failed:
    """Print `message` on stderr; return the exception that ends the command."""
    print(message, file=sys.stderr)
    return Failed(status)


def settings() -> Settings:
    """Read the settings: the one place the environment and `.env` are read."""
    from bot.settings import Settings, SettingsError

    try:
        return Settings()
    except SettingsError as error:
        lines = [f"  {name}: {message}" for name, message in error.problems]
        raise fail("clubtd: invalid settings:\n" + "\n".join(lines)) from None


def collect_from_now_on() -> None:
    """Turn the garbage collector back on once a command has started, if `main` turned
    it off, with what start-up made frozen: a long-running command needs it, and it
    then only walks what the command makes."""
    if not gc.isenabled():
        gc.freeze()
        gc.enable()


def with_app(
    db: str | None, work: Callable[[App], Awaitable[int]], *, clock: Clock | None = None
) -> int:
    """Build the app for `db`, run `work`, close the app; return its exit status."""
    import asyncio

    from bot.bootstrap import build

    config = settings()

    async def main() -> int:
        built = await build(config, clock=clock or RealClock(), database_url=db)
        collect_from_now_on()
        try:
            return await work(built)
        finally:
            await built.close()

    return asyncio.run(main())


def demo(pictures: Path | None) -> int:
    """Run a complete simulated club night in the console, on SQLite (clubtd-demo.db)."""
    import asyncio

    from bot.demo.night import run_demo

    folder = pictures if pictures is not None else Path.cwd() / DEMO_PICTURES
    config = settings()
    collect_from_now_on()
    return asyncio.run(run_demo(config, Path.cwd(), pictures=folder))


def run() -> int:
    """Start the adapters whose tokens are configured (Discord, Telegram)."""
    from bot.runner import serve

    logging.getLogger("clubtd").setLevel(logging.INFO)
    config = settings()
    collect_from_now_on()
    return serve(config)


def console(
    db: str | None,
    as_name: str | None,
    script: Path | None,
    real_clock: bool,
    pictures: Path | None,
) -> int:
    """Chat with the bot in the terminal, or replay a transcript with --script."""
    import asyncio

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

    return with_app(db, work)


def web(db: str | None, listen: str | None) -> int:
    """Serve the public pages of the clubs in the database (turned on with /club web:on)."""
    from bot.settings import listen_address

    if listen is not None:
        try:
            listen_address(listen)
        except ValueError as error:
            raise fail(f"clubtd: --listen {error}") from None
    logging.getLogger("clubtd").setLevel(logging.INFO)

    async def work(built: App) -> int:
        server = built.web_server(listen)
        try:
            await server.start()
        except OSError as error:
            where = f"{server.host}:{server.port}"
            print(f"clubtd web: cannot listen on {where}: {error}", file=sys.stderr)
            return 1
        print(
            f"clubtd web: serving the public pages on http://{server.host}:{server.port} "
            f"(links start with {server.store.base_url}/c/); Ctrl+C stops.",
            flush=True,
        )
        try:
            await _until_interrupted()
        finally:
            await server.stop()
        return 0

    return with_app(db, work)


async def _until_interrupted() -> None:
    import asyncio
    import contextlib
    import signal

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(sig, stop.set)
    await stop.wait()


def export(db: str | None, tournament: str | None, club: str | None) -> int:
    """Write the club's state as JSON (players, ranking, tournaments) to stdout."""
    from bot.console_chat import CLUB_CHAT, PLATFORM
    from commands.export import ExportError, export_club, find_club

    async def work(built: App) -> int:
        async with built.uow_factory() as uow:
            try:
                found = await find_club(uow, club, console=(PLATFORM, CLUB_CHAT))
                data = await export_club(uow, found, tournament=tournament)
            except ExportError as error:
                print(f"clubtd: {error}", file=sys.stderr)
                return 2
        sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
        return 0

    return with_app(db, work)


def ranking_import(
    file: Path, db: str | None, club: str | None, game: str | None, replace: bool
) -> int:
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
        raise fail(f"clubtd: --game {game}: choose {' or '.join(GAMES)}")
    try:
        rows = read_ranking(decode(file.read_bytes()))
    except ImportFileError as error:
        raise fail(_problems(file, error)) from None
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
            print(f"clubtd: {problem}", file=sys.stderr)
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
                print(_problems(file, error), file=sys.stderr)
                return 2
        _show_import(out, found, done)
        return 0

    return with_app(db, work)


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


def _existing_file(text: str) -> Path:
    """Return the path of a file that exists and can be read (argparse type)."""
    path = Path(text)
    if not path.exists():
        raise argparse.ArgumentTypeError(f"file {text!r} does not exist.")
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"file {text!r} is a directory.")
    try:
        path.open("rb").close()
    except OSError:
        raise argparse.ArgumentTypeError(f"file {text!r} is not readable.") from None
    return path


def _command(
    commands: argparse._SubParsersAction[argparse.ArgumentParser],
    name: str,
    function: Callable[..., int],
) -> argparse.ArgumentParser:
    """Add the subcommand `name`, described by `function`'s docstring."""
    summary = (function.__doc__ or "").strip()
    return commands.add_parser(name, help=summary, description=summary, allow_abbrev=False)


def _db(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", metavar="URL", help=DB_HELP)


def parser() -> argparse.ArgumentParser:
    """Return the `clubtd` command line: its commands, options and help (INTERFACE §2)."""
    main = argparse.ArgumentParser(
        prog="clubtd",
        description="clubtd: a tournament director that lives in your club's chat.",
        allow_abbrev=False,
    )
    commands = main.add_subparsers(dest="command", metavar="COMMAND", title="commands")

    command = _command(commands, "demo", demo)
    command.add_argument(
        "--pictures",
        metavar="DIR",
        type=Path,
        help=f"Where the night's pictures go (default: ./{DEMO_PICTURES}).",
    )
    command.set_defaults(call=lambda a: demo(a.pictures))

    command = _command(commands, "run", run)
    command.set_defaults(call=lambda a: run())

    command = _command(commands, "console", console)
    _db(command)
    command.add_argument(
        "--as", dest="as_name", metavar="NAME", help="Who types bare /commands (default: you)."
    )
    command.add_argument(
        "--script",
        metavar="FILE",
        type=_existing_file,
        help="Replay a transcript on a virtual clock instead of reading the keyboard.",
    )
    command.add_argument(
        "--real-clock",
        action="store_true",
        help="Run on the real time even on a database a transcript wrote "
        "(default: continue on its stored virtual clock).",
    )
    command.add_argument(
        "--pictures",
        metavar="DIR",
        type=Path,
        help="Write pictures (tables, brackets) to DIR and show them as "
        "[picture: NAME.png] lines.",
    )
    command.set_defaults(
        call=lambda a: console(a.db, a.as_name, a.script, a.real_clock, a.pictures)
    )

    command = _command(commands, "web", web)
    _db(command)
    command.add_argument(
        "--listen",
        metavar="HOST:PORT",
        help="Where to serve the pages (default: CLUBTD_WEB_LISTEN, else 127.0.0.1:8080).",
    )
    command.set_defaults(call=lambda a: web(a.db, a.listen))

    command = _command(commands, "export", export)
    _db(command)
    command.add_argument("--tournament", metavar="NAME", help="Export one tournament only.")
    command.add_argument("--club", metavar="NAME", help="The club, when the database has several.")
    command.add_argument(
        "--format", choices=["json"], default="json", help="Output format (default: json)."
    )
    command.set_defaults(call=lambda a: export(a.db, a.tournament, a.club))

    ranking = commands.add_parser(
        "ranking",
        help="Manage the club's ranking.",
        description="Manage the club's ranking.",
        allow_abbrev=False,
    )
    ranking_commands = ranking.add_subparsers(dest="ranking", metavar="COMMAND", title="commands")
    ranking.set_defaults(call=lambda a: _usage(ranking))
    command = _command(ranking_commands, "import", ranking_import)
    command.add_argument(
        "file",
        metavar="FILE.csv",
        type=_existing_file,
        help="CSV name,points (or name;points), best first; decimal point or comma.",
    )
    _db(command)
    command.add_argument(
        "--club",
        metavar="NAME",
        help="The club; created with this name when the database has none yet.",
    )
    command.add_argument(
        "--game",
        metavar="GAME",
        help="backgammon or draughts (default: the club's only game, else backgammon).",
    )
    command.add_argument(
        "--replace",
        action="store_true",
        help="Replace a ranking imported before for this game.",
    )
    command.set_defaults(call=lambda a: ranking_import(a.file, a.db, a.club, a.game, a.replace))
    main.set_defaults(call=lambda a: _usage(main))
    return main


def _usage(parser: argparse.ArgumentParser) -> int:
    """A command group without its command: show its help, as a usage error."""
    parser.print_help(sys.stderr)
    return 2


def run_command_line(args: Sequence[str]) -> int:
    """Run `clubtd ARGS`; return its exit status (argparse exits itself on --help or
    a usage error, with status 0 or 2)."""
    options = parser().parse_args(args)
    call: Callable[[argparse.Namespace], int] = options.call
    try:
        return call(options)
    except Failed as failed:
        return failed.status


def main() -> NoReturn:
    """Run the `clubtd` command line and exit with its status."""
    # Start-up imports and builds ~100,000 objects that all live until the exit, and no
    # garbage: collecting while it runs cost ~20% of a short command's start-up, and the
    # collection at exit walked them all again (~100 ms). Off until the command starts
    # (collect_from_now_on), and everything frozen out of the last one's sight.
    gc.disable()
    logging.basicConfig(
        level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    status = run_command_line(sys.argv[1:])
    gc.freeze()
    sys.exit(status)


if __name__ == "__main__":
    main()
