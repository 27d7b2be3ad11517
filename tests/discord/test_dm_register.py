"""/register in a Discord DM agrees with where the player stands (issue 20 item 8)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from tests.discord.inprocess import running
from tests.discord.standin import User


async def test_register_in_a_dm_says_where_the_player_stands(tmp_path: Path) -> None:
    async with running(tmp_path) as adapter:
        standin = adapter.standin
        start = (datetime.now(UTC) + timedelta(hours=30)).strftime("%Y-%m-%d %H:%M")
        await adapter.slash(
            adapter.ana, "tournament", sub="new", name="Cup", start=start, approval="no"
        )
        alice, bob = adapter.players
        assert "you are entered in Cup" in await adapter.slash(alice, "register")

        async def in_dm(who: User, command: str) -> str:
            return (await standin.answer(await standin.slash(who, command))).text

        assert "already entered in Cup" in await in_dm(alice, "register")
        assert "Cup: entered; confirmed: no" in await in_dm(alice, "me")
        await in_dm(alice, "confirm")
        assert "already entered in Cup" in await in_dm(alice, "register")
        # Bob has no entry: he is sent to the server, in Discord's words as well.
        said = await in_dm(bob, "register")
        assert "Discord server" in said and "/register" in said


async def test_a_stranger_is_answered_in_the_language_of_their_discord_app(
    tmp_path: Path,
) -> None:
    async with running(tmp_path) as adapter:
        standin = adapter.standin
        rocio = standin.user(990, "Rocío", locale="es-ES")
        said = (await standin.answer(await standin.slash(rocio, "register"))).text
        assert said.startswith("Inscríbete primero donde se reúne tu club"), said
