"""The `clubtd` command line (INTERFACE §2): its commands, options and help.

Parsed with argparse: typer cost ~90 ms of every call (it loads pydantic to coerce
each option), a third of the start-up issue 17 allows. The commands, options, help
texts and exit statuses (0 for --help, 2 for a usage error, 130 for Ctrl+C) are those
typer gave; the help is laid out as argparse does, without typer's boxes. What the
commands do is in bot.cli_commands.
"""

from __future__ import annotations

import argparse
import gc
import logging
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NoReturn

from bot.cli_commands import (
    DEMO_PICTURES,
    Failed,
    console,
    demo,
    export,
    ranking_import,
    run,
    web,
)

DB_HELP = "Database URL (default: the CLUBTD_DATABASE_URL setting, sqlite:///clubtd.db)."


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
    return run_options(parser().parse_args(args))


def run_options(options: argparse.Namespace) -> int:
    """Run the command `options` were parsed for; return its exit status."""
    call: Callable[[argparse.Namespace], int] = options.call
    try:
        return call(options)
    except Failed as failed:
        return failed.status
    except KeyboardInterrupt:
        return 130  # Ctrl+C: stopped on purpose, no traceback (the shells' 128 + SIGINT)
    except EOFError:
        print("\nAborted!", file=sys.stderr)
        return 1


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
    options = parser().parse_args(sys.argv[1:])
    # The methods of the dataclasses the core makes as a command imports it, compiled
    # on an earlier run (~0.2 ms each, ~55 ms of an export); not for --help (exited
    # above), which makes none and would only pay for importing dataclasses.
    from bot import dataclass_cache

    dataclass_cache.install()
    try:
        status = run_options(options)
    except BrokenPipeError:
        # `clubtd export | head`: the reader is gone; nothing more to say, on no stream.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        status = 1
    finally:
        dataclass_cache.save()
    gc.freeze()
    sys.exit(status)


if __name__ == "__main__":
    main()
