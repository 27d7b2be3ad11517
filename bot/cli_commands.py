"""What each `clubtd` command does (INTERFACE §2); bot.cli reads the command line.

Each command imports what it uses when it runs (issue 17: `export` needs neither the
chat platforms, the pictures, the console nor `rich`; `--help` not even asyncio).
"""

from __future__ import annotations

import gc
import json
import logging
import sys
from collections.abc import Awaitable, Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from bot.clock import Clock, RealClock

if TYPE_CHECKING:
    from rich.console import Console

    from bot.bootstrap import App
    from bot.settings import Settings
    from commands.ranking_import import Imported
    from tournament.club import Club

DEMO_PICTURES = "clubtd-demo-pictures"


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
        # Not collected first: start-up leaves ~500 unreachable objects (mostly the
        # classes dataclass(slots=True) replaces, with their methods), frozen for good;
        # a full collection would cost ~50 ms.
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
    from bot.transcript import run_script

    # utf-8-sig: a transcript saved by Windows' Notepad starts with a byte-order mark.
    text = script.read_text(encoding="utf-8-sig") if script is not None else None

    async def work(built: App) -> int:
        bot = ConsoleBot(
            uow_factory=built.uow_factory,
            config=built.config,
            outbox=built.outbox,
            output=PlainOutput(),
        )
        if text is not None:
            return await run_script(bot, text, pictures=pictures)
        # Only at the keyboard: a transcript needs neither the prompt nor getpass.
        from bot.console_interactive import interactive

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
        async with built.uow_factory() as uow:
            try:
                found, created = await club_for_import(
                    uow, club, now, console=(PLATFORM, CLUB_CHAT), first=first
                )
            except ExportError as problem:
                print(f"clubtd: {problem}", file=sys.stderr)
                return 2
            chosen = game or await club_game(uow, found)
            try:
                # The club, when new, is committed with the import, or not at all.
                done = await import_ranking(uow, found, rows, now, game=chosen, replace=replace)
            except (ImportFileError, AlreadyImported) as error:
                print(_problems(file, error), file=sys.stderr)
                return 2
        if created:
            out.print(
                Text(
                    f"Created the club {found.name} (time zone {found.timezone}, "
                    f"language {found.language}); change them in the chat with /club."
                )
            )
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
    for typed, member in done.matched:
        out.print(Text(f"{typed!r} is the club's {member!r} (the same name, accents aside)."))
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
