"""`clubtd run` as a subprocess against the Discord stand-in (and, optionally, the
Telegram emulator): the same program a club runs, configured only by environment."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from dataclasses import dataclass, field
from pathlib import Path

from tests.discord.standin import StandIn

CLUBTD = Path(sys.executable).parent / "clubtd"
ROOT = Path(__file__).resolve().parents[2]


def require_discord() -> str | None:
    """Return why the Discord tests cannot run, or None; under CLUBTD_REQUIRE_DISCORD=1
    (CI) raise instead of skipping."""
    reason = None
    try:
        import aiohttp  # noqa: F401
        import discord  # noqa: F401
    except ImportError as error:
        reason = f"discord.py is not installed ({error}): run `make lint` to build .venv"
    if reason is None and not CLUBTD.exists():
        reason = f"{CLUBTD} is missing: install the project (`pip install -e .`)"
    if reason is not None and os.environ.get("CLUBTD_REQUIRE_DISCORD") == "1":
        raise RuntimeError(f"CLUBTD_REQUIRE_DISCORD=1 but {reason}")
    return reason


@dataclass
class BotProcess:
    """One `clubtd run` process; `log` keeps what it printed, for failures."""

    standin: StandIn
    database_url: str
    log: Path
    env: dict[str, str] = field(default_factory=dict)
    process: asyncio.subprocess.Process | None = None

    async def start(self, *, seconds: float = 40.0) -> None:
        self.standin.identified.clear()
        env = {
            **os.environ,
            "CLUBTD_DISCORD_TOKEN": self.standin.token,
            "CLUBTD_DISCORD_API_URL": self.standin.api_url,
            "CLUBTD_DATABASE_URL": self.database_url,
            "CLUBTD_TELEGRAM_TOKEN": "",
            # This checkout's code, whatever the virtual environment has installed.
            "PYTHONPATH": str(ROOT),
            **self.env,
        }
        handle = self.log.open("ab")
        self.process = await asyncio.create_subprocess_exec(
            str(CLUBTD), "run", env=env, stdout=handle, stderr=handle, cwd=self.log.parent
        )
        handle.close()
        try:
            await asyncio.wait_for(self.standin.identified.wait(), timeout=seconds)
        except TimeoutError:
            await self.stop()
            raise AssertionError(f"clubtd run did not connect:\n{self.output()}") from None

    async def stop(self) -> None:
        process, self.process = self.process, None
        if process is None or process.returncode is not None:
            return
        process.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(process.wait(), timeout=15)
        except TimeoutError:
            process.kill()
            await process.wait()
        await self.standin.disconnect()

    def output(self) -> str:
        return self.log.read_text(errors="replace")[-6000:] if self.log.exists() else ""
