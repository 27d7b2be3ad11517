"""Fixtures for the Discord end-to-end tests: the stand-in and `clubtd run` against it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import pytest_asyncio

from tests.discord.process import BotProcess, require_discord
from tests.discord.standin import StandIn, User

GUILD = 700_000_000_000_000_001
GENERAL = 700_000_000_000_000_002
TD_ROLE = 700_000_000_000_000_003


@dataclass
class World:
    """A Discord server with a director, a role-director, players, and the bot."""

    standin: StandIn
    bot: BotProcess
    ana: User  # has Manage Server
    dora: User  # has the configured director role
    eli: User  # in CLUBTD_DIRECTORS
    players: list[User]
    tricky: User  # a name that tries to ping everyone

    async def slash(self, who: User, name: str, /, **options: object) -> str:
        """`who` runs a slash command in #general; return the visible answer's text."""
        interaction = await self.standin.slash(
            who, name, guild_id=GUILD, channel_id=GENERAL, **options
        )
        return (await self.standin.answer(interaction)).text


@pytest_asyncio.fixture
async def world(tmp_path: Path, sqlite_url: str) -> AsyncIterator[World]:
    reason = require_discord()
    if reason is not None:
        pytest.skip(reason)
    standin = StandIn()
    guild = standin.guild(GUILD, "HG Club", {GENERAL: "general"})
    guild.roles[TD_ROLE] = "TD"
    ana = standin.user(800_001, "Ana")
    dora = standin.user(800_002, "Dora")
    eli = standin.user(800_003, "Eli")
    players = [standin.user(810_000 + i, n) for i, n in enumerate(["Alice", "Bob", "Cruz"], 1)]
    tricky = standin.user(820_001, "@everyone **x**")
    standin.join(GUILD, ana, manage=True)
    standin.join(GUILD, dora, roles=[TD_ROLE])
    for member in [eli, *players, tricky]:
        standin.join(GUILD, member)
    await standin.start()
    bot = BotProcess(
        standin,
        sqlite_url,  # at the head revision already: the bot starts without migrating
        tmp_path / "clubtd.log",
        env={
            "CLUBTD_DISCORD_DIRECTOR_ROLE": str(TD_ROLE),
            "CLUBTD_DIRECTORS": f"discord:{eli.id}",
        },
    )
    try:
        await bot.start()
        yield World(standin, bot, ana, dora, eli, players, tricky)
    finally:
        await bot.stop()
        await standin.stop()
