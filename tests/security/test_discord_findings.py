"""Issue 16, the Discord findings: rights by id only (B2), each attack replayed through
the real adapter against the Discord stand-in, or on the settings it reads."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.settings import Settings
from tests.discord.conftest import GUILD
from tests.discord.inprocess import running
from tests.discord.standin import StandIn

TD_ROLE = 700_000_000_000_000_003
EVES_ROLE = 700_000_000_000_000_099
NEW_CUP = {"name": "Cup", "start": "2026-12-31 20:00"}


# -- B2: a role merely named like the configured id made Eve a director --


async def test_b2_a_role_named_like_the_director_role_gives_no_rights(tmp_path: Path) -> None:
    def server(standin: StandIn) -> None:
        guild = standin.guilds[GUILD]
        guild.roles[TD_ROLE] = "Tournament Director"
        guild.roles[EVES_ROLE] = str(TD_ROLE)  # Eve, who manages roles, made this one
        standin.join(GUILD, standin.user(830_001, "Eve"), roles=[EVES_ROLE])
        standin.join(GUILD, standin.user(830_002, "Dora"), roles=[TD_ROLE])

    async with running(tmp_path, server, director_role=str(TD_ROLE)) as adapter:
        eve, dora = adapter.standin.users[830_001], adapter.standin.users[830_002]
        await adapter.slash(adapter.ana, "tournament", sub="new", **NEW_CUP)
        assert "Only directors" in await adapter.slash(eve, "draw")
        assert "Only directors" not in await adapter.slash(dora, "draw")  # the real role


def test_b2_a_director_role_given_by_name_is_a_start_up_error() -> None:
    for name in ("Tournament Director", "TD", "@TD"):
        with pytest.raises(ValueError, match="role id"):
            Settings(discord_director_role=name)
    assert Settings(discord_director_role=f" {TD_ROLE} ").discord_director_role == str(TD_ROLE)
