"""The club's news go to its channel, whichever channel a command was answered in.

On Discord the club is the server; its announcements (outbox rows) go to the one
channel remembered for it. A command's answer may carry an announcement (the outbox row
is then marked sent with it), but only an answer in that channel carries it: one in
another channel of the server leaves it to the sender, which posts it in the club's
channel. And a button posted before the token table still finds its command.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest_asyncio

from bot.discord_adapter.service import BUTTON_KEY
from bot.discord_adapter.transport import DiscordTransport
from bot.sending.buttons import token_for
from bot.sending.pacing import Window, WindowPacer
from tests.discord.conftest import GENERAL, GUILD
from tests.discord.inprocess import Adapter, running, settled

CHAT = 700_000_000_000_000_009  # a second channel of the server: #chat


@pytest_asyncio.fixture
async def adapter(tmp_path: Path) -> AsyncIterator[Adapter]:
    async with running(tmp_path) as adapter:
        adapter.standin.guilds[GUILD].channels[CHAT] = "chat"
        yield adapter


async def _drawn(adapter: Adapter) -> None:
    """Ana opens a cup in #general (the club's channel from then on) and draws it."""
    start = (datetime.now(UTC) + timedelta(minutes=30)).strftime("%Y-%m-%d %H:%M")
    await adapter.slash(
        adapter.ana, "tournament", sub="new", name="Cup", start=start, approval="no"
    )
    for player in adapter.players:
        await adapter.slash(player, "register")
        await adapter.slash(player, "checkin")
    await adapter.slash(adapter.ana, "draw")


async def test_a_dispute_answered_in_another_channel_reaches_the_clubs_channel(
    adapter: Adapter,
) -> None:
    standin = adapter.standin
    await _drawn(adapter)
    alice, bob = adapter.players
    mine = await standin.autocomplete(
        alice, "report", "match", guild_id=GUILD, channel_id=CHAT, match=""
    )
    match = mine[0]["value"]
    reported = await standin.slash(
        alice, "report", guild_id=GUILD, channel_id=CHAT, score="3-1", match=match
    )
    await standin.answer(reported)
    disputed = await standin.slash(bob, "dispute", guild_id=GUILD, channel_id=CHAT, match=match)
    answer = await standin.answer(disputed)
    assert answer.channel_id == CHAT and "disputed" in answer.text
    # The dispute is posted in #general too, where the club's directors read its news.
    news = await standin.wait_for(
        lambda m: m.channel_id == GENERAL and m.interaction_id is None and "disputed by" in m.text,
        seconds=15,
    )
    assert "Bob" in news.text


async def test_an_answer_in_the_clubs_channel_still_carries_the_news(adapter: Adapter) -> None:
    standin = adapter.standin
    await _drawn(adapter)
    alice, bob = adapter.players
    mine = await standin.autocomplete(
        alice, "report", "match", guild_id=GUILD, channel_id=GENERAL, match=""
    )
    match = mine[0]["value"]
    await adapter.slash(alice, "report", score="3-1", match=match)
    answer = await adapter.slash(bob, "dispute", match=match)
    assert "disputed by" in answer
    await settled(adapter)  # the answer's news settled, and the sender had its turn
    copies = [m for m in standin.in_channel(GENERAL) if "disputed by" in m.text]
    assert len(copies) == 1 and copies[0].interaction_id is not None


async def test_a_button_posted_before_the_token_table_still_works(adapter: Adapter) -> None:
    # Before the button_tokens table, Discord kept a long command's token in meta.
    command = "/result match:7 score:3-1 tournament:" + "y" * 80
    token = token_for(command)
    async with adapter.service.handlers.uow_factory() as uow:
        await uow.meta.set(BUTTON_KEY + token, command)
        await uow.commit()
    assert await adapter.service.transport.buttons.command_for(token) == command


class _Client:
    """What the transport asks of discord.py to open a DM channel: counted."""

    def __init__(self) -> None:
        self.http = self
        self.opened: list[int] = []

    async def start_private_message(self, user: int) -> dict[str, str]:
        self.opened.append(user)
        return {"id": str(user + 1)}


async def test_a_persons_dm_channel_is_opened_once() -> None:
    """Discord keeps a person's DM channel: asking for it before every direct message
    was a request (and a share of the event loop) each time."""
    client = _Client()
    transport = DiscordTransport(
        client,  # type: ignore[arg-type]
        WindowPacer(Window()),
        None,  # type: ignore[arg-type]  # no buttons, no database: DMs only
        None,  # type: ignore[arg-type]
    )
    assert await transport.channel_for("user:41") == 42
    assert await transport.channel_for("user:41") == 42
    assert await transport.channel_for("user:7") == 8
    assert client.opened == [41, 7]
