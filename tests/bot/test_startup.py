"""Start-up: `clubtd` commands import only what they use (issue 17).

Counted in modules, not in seconds: a command that imports the chat platforms, the
pictures or the migration tool it does not use pays for them on every call.
"""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
from pathlib import Path

from bot.bootstrap import App
from bot.cli_commands import with_app
from tests.bot.conftest import Clubtd, Script

ROOT = Path(__file__).resolve().parents[2]
NEVER = ("discord", "telegram", "PIL", "aiohttp", "alembic", "rich")
# Runs `clubtd ARGS` in a fresh interpreter and prints the modules it imported.
PROBE = """
import json, sys
from bot.cli import main
sys.argv = ["clubtd", *sys.argv[1:]]
try:
    main()
except SystemExit:
    pass
finally:
    print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""


def imported(*args: str) -> set[str]:
    """Return the modules a fresh `clubtd ARGS` (or a bare import, no ARGS) imports."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLUBTD_")}
    code = (
        PROBE
        if args
        else "import json, sys; from bot.cli import main; "
        + ("print(json.dumps(sorted(sys.modules)), file=sys.stderr)")
    )
    done = subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return set(json.loads(done.stderr.strip().splitlines()[-1]))


def unwanted(modules: set[str], names: tuple[str, ...]) -> set[str]:
    return {m for m in modules if m.split(".")[0] in names}


def test_importing_the_command_line_loads_no_platform_database_or_console() -> None:
    modules = imported()
    assert unwanted(modules, NEVER) == set()
    assert not {"sqlalchemy", "bot.console", "bot.bootstrap", "pydantic", "asyncio"} & modules


def test_export_loads_no_platform_pictures_console_or_migration_tool(
    clubtd: Clubtd, script: Script, tmp_path: Path
) -> None:
    db = f"sqlite:///{tmp_path / 'club.db'}"
    night = script("night.t", "@director ana\nana: /help\n")
    assert clubtd("console", "--script", night, "--db", db).exit_code == 0
    modules = imported("export", "--db", db)
    assert unwanted(modules, NEVER) == set()
    assert "bot.console" not in modules
    assert "sqlalchemy" in modules  # it did read the database
    # Nor the scheduler, nor the command layer's replies and announcements, nor the
    # pydantic models of SQLModel tables: an export reads the database and writes JSON.
    assert unwanted(modules, ("apscheduler", "sqlmodel")) == set()
    # Settings and options are read with the standard library: pydantic-settings cost
    # ~70 ms, typer ~90 ms with the pydantic it coerces options with.
    assert unwanted(modules, ("pydantic_settings", "dotenv", "pydantic", "typer")) == set()
    # On SQLite, neither the PostgreSQL dialect nor the rules that change a tournament,
    # nor SQLAlchemy's asyncio layer and the ORM it brings (storage/sqlite_driver.py).
    assert not {"sqlalchemy.dialects.postgresql", "tournament.progress"} & modules
    assert not {"sqlalchemy.ext.asyncio", "sqlalchemy.orm"} & modules
    assert "commands.catalog" not in modules  # ~2,900 lines of messages it never shows
    assert not {"commands.session", "commands.announce", "bot.scheduler"} & modules


def test_a_command_works_with_the_collector_on_and_its_start_up_frozen(tmp_path: Path) -> None:
    """`main` turns the collector off for start-up: the work (a console, the pages) must
    not run without it, nor make it walk what start-up made."""
    seen: list[tuple[bool, bool]] = []

    async def work(built: App) -> int:
        seen.append((gc.isenabled(), gc.get_freeze_count() > 0))
        return 0

    gc.disable()
    try:
        assert with_app(f"sqlite:///{tmp_path / 'club.db'}", work) == 0
    finally:
        gc.enable()
        gc.unfreeze()
    assert seen == [(True, True)]


def test_a_transcript_loads_no_keyboard_console(
    clubtd: Clubtd, script: Script, tmp_path: Path
) -> None:
    """`console --script` replays a file: the prompt, getpass and the terminal's
    settings are for the keyboard only."""
    db = f"sqlite:///{tmp_path / 'club.db'}"
    night = script("night.t", "@director ana\nana: /help\n")
    assert clubtd("console", "--script", night, "--db", db).exit_code == 0  # migrated
    modules = imported("console", "--script", night, "--db", db)
    assert "bot.transcript" in modules  # it did replay the file
    assert not {"bot.console_interactive", "getpass", "termios"} & modules
    assert unwanted(modules, NEVER) == set()
