"""One club in a Telegram group and a Discord server, served by one `clubtd run` process.

The Telegram group's administrator links the club (`/club link`), a Discord director
joins it (`/club join`); then a result reported on Discord is announced in the
Telegram group, and a result reported on Telegram is announced in the Discord channel.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from tests.discord.conftest import GENERAL, GUILD
from tests.discord.process import BotProcess, require_discord
from tests.discord.standin import StandIn, User
from tests.telegram import emulator as emu
from tests.telegram.emulator import Client, Emulator, group_chat, person

TOKEN = "4321:LINKED"
GROUP_ID = -100888
GROUP = group_chat(GROUP_ID)
TINA = person(5101, "Tina")  # the Telegram group's administrator
TOM = person(5102, "Tom")  # a player on Telegram


@pytest.fixture(scope="module")
def emulator() -> Iterator[Emulator]:
    reason = emu.require_emulator() or require_discord()
    if reason is not None:
        pytest.skip(reason)
    with emu.running() as running:
        yield running


@pytest_asyncio.fixture
async def linked(
    emulator: Emulator, tmp_path: Path
) -> AsyncIterator[tuple[StandIn, Client, BotProcess]]:
    client = emulator.client(TOKEN)
    await client.shim("reset")
    await client.shim("admins", chatId=GROUP_ID, userIds=[TINA["id"]])
    standin = StandIn()
    standin.guild(GUILD, "HG Club", {GENERAL: "general"})
    await standin.start()
    bot = BotProcess(
        standin,
        f"sqlite:///{tmp_path / 'clubtd.db'}",
        tmp_path / "clubtd.log",
        env={"CLUBTD_TELEGRAM_TOKEN": TOKEN, "CLUBTD_TELEGRAM_API_URL": emulator.api_url},
    )
    try:
        await bot.start()
        yield standin, client, bot
    finally:
        await bot.stop()
        await standin.stop()
        await client.close()


def _text(item: dict[str, Any]) -> str:
    return str(item["message"].get("text") or "")


async def test_a_club_in_telegram_and_discord_hears_every_announcement(
    linked: tuple[StandIn, Client, BotProcess],
) -> None:
    standin, telegram, _bot = linked
    ana = standin.user(800_001, "Ana")
    alice, bob = standin.user(810_001, "Alice"), standin.user(810_002, "Bob")
    standin.join(GUILD, ana, manage=True)
    for member in (alice, bob):
        standin.join(GUILD, member)

    async def discord(who: User, name: str, /, **options: object) -> str:
        interaction = await standin.slash(who, name, guild_id=GUILD, channel_id=GENERAL, **options)
        return (await standin.answer(interaction)).text

    async def telegram_says(who: dict[str, Any], text: str, contains: str) -> str:
        await telegram.type(who, GROUP, text)
        return _text(await telegram.wait_for(GROUP_ID, lambda m: contains in _text(m), seconds=20))

    # The Telegram group becomes a club and gives a code (in the group, or privately to
    # the director); the Discord server joins with it, and the club confirms if it asks.
    await telegram.type(TINA, GROUP, "/club link")
    await telegram.wait_for(TINA["id"], lambda m: "/club join" in _text(m), seconds=20)
    texts = [_text(m) for m in await telegram.bot_messages(TINA["id"])]
    code = next(
        (found.group(1) for t in texts if (found := re.search(r"/club join (\S+)", t))), None
    )
    assert code, texts
    joined = await discord(ana, "club", sub="join", code=code.strip("<>."))
    # (Discord shows the hint in its slash form, `/club confirm link:2`: the number is it.)
    confirm = re.search(r"/club confirm (?:link:)?(\d+)", joined)
    if confirm:
        await telegram_says(TINA, f"/club confirm {confirm.group(1)}", "confirmed")
    else:
        assert "part of" in joined, joined

    # A tournament created on Discord is announced in the Telegram group.
    start = (datetime.now(UTC) + timedelta(minutes=30)).strftime("%Y-%m-%d %H:%M")
    await discord(ana, "tournament", sub="new", name="Linked Cup", start=start, approval="no")
    await telegram.wait_for(GROUP_ID, lambda m: "Linked Cup" in _text(m), seconds=20)

    # Players on both platforms enter; the Telegram administrator draws.
    for player in (alice, bob):
        await discord(player, "register")
        await discord(player, "checkin")
    await telegram_says(TOM, "/register", "Tom, you are entered")
    await telegram_says(TOM, "/checkin", "Tom is checked in")
    await telegram_says(TINA, "/draw", "Draw made")

    # A director on Discord sets Alice v Tom; the Telegram director sets Tom v Bob.
    await discord(ana, "result", player="Alice", score="3-1", opponent="Tom")
    await telegram.wait_for(
        GROUP_ID,
        lambda m: "Alice" in _text(m) and "Tom" in _text(m) and "wins" in _text(m),
        seconds=20,
    )
    await telegram_says(TINA, "/result tom 3-0 bob", "wins")
    # Both results are announced in the Discord channel, and in the Telegram group.
    for first, second in (("Tom", "Bob"),):
        await standin.wait_for(
            lambda m, a=first, b=second: (
                m.channel_id == GENERAL
                and m.interaction_id is None
                and a in m.text
                and b in m.text
                and "wins" in m.text
            ),
            seconds=20,
        )
    await telegram.wait_for(
        GROUP_ID,
        lambda m: "Tom" in _text(m) and "Bob" in _text(m) and "wins" in _text(m),
        seconds=20,
    )
