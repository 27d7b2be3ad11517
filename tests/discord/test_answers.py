"""Offline: what an interaction's answer that breaks does (a fake interaction, the real
handlers on a real database).

An answer of several messages that fails after the first ones is not queued again in
full (that repeated them), and the announcement it carries went with them; a network
fault is handled like Discord's own refusals (queued, not lost).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import aiohttp
import discord
import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.discord_adapter.interactions import InteractionHandlers
from bot.discord_adapter.posts import Post
from bot.discord_adapter.rendering import render
from bot.discord_adapter.transport import DiscordTransport
from bot.sending.buttons import ButtonStore
from bot.sending.pacing import Window, WindowPacer
from commands.config import CommandConfig
from commands.dispatch import Response
from commands.replies import say, to_payload
from commands.session import Invocation
from storage import tables as t
from storage.outbox import OutboxStore
from storage.unit_of_work import unit_of_work_factory

NOW = datetime(2026, 1, 31, 20, 0, tzinfo=UTC)
GUILD = 700
CLUBS = 701  # the club's channel
CHAT = 702  # another channel of the server
POSTS = [Post("one", []), Post("two", []), Post("three", [])]


class Interaction:
    """An interaction whose answer breaks: the first `ok` messages go, then `error`."""

    def __init__(self, ok: int, error: BaseException, channel_id: int = CLUBS) -> None:
        self.ok = ok
        self.error = error
        self.id = 1
        self.channel_id = channel_id
        self.guild_id = GUILD
        self.sent: list[str | None] = []
        self.response = self
        self.followup = self

    def is_done(self) -> bool:
        return bool(self.sent)

    async def send_message(self, content: str | None = None, **_: Any) -> None:
        if len(self.sent) >= self.ok:
            raise self.error
        self.sent.append(content)

    async def send(self, content: str | None = None, **kwargs: Any) -> None:
        await self.send_message(content, **kwargs)


def _handlers(engine: AsyncEngine) -> InteractionHandlers:
    uow = unit_of_work_factory(engine)
    transport = DiscordTransport(
        None,  # type: ignore[arg-type]  # a server's channel is read from the database
        WindowPacer(Window()),
        ButtonStore(uow, limit=96),
        uow,
    )
    return InteractionHandlers(
        uow_factory=uow,
        config=CommandConfig(),
        clock=lambda: NOW,
        transport=transport,
        outbox=OutboxStore(engine),
    )


async def _held(engine: AsyncEngine) -> Response:
    """A reply carrying an announcement queued (and held for it) in the same command."""
    reply = say("help.title")
    async with unit_of_work_factory(engine)() as uow:
        club = await uow.clubs.add("Club", "UTC", "en", NOW)
        (row_id,) = await uow.outbox.add_many(
            [
                {
                    "club_id": club.id,
                    "platform": "discord",
                    "chat": str(GUILD),
                    "payload": to_payload(reply),
                    "created_at": NOW,
                    "held_until": NOW + timedelta(minutes=2),
                }
            ]
        )
        await uow.commit()
    return Response(reply, "en", "UTC", club.id, held=(row_id,))


async def _answer(
    engine: AsyncEngine, handlers: InteractionHandlers, response: Response, fake: Interaction
) -> bool:
    await handlers.transport.remember_channel(str(GUILD), str(CLUBS))
    inv = Invocation(
        platform="discord",
        chat=str(GUILD),
        channel=str(fake.channel_id),
        user="42",
        user_name="Alice",
        text="/help",
        now=NOW,
    )
    outgoing = render(response.reply, "en", "UTC")
    return await handlers.reply(fake, inv, response, outgoing, list(POSTS), ephemeral=False)  # type: ignore[arg-type]


async def _rows(engine: AsyncEngine) -> list[Any]:
    async with engine.connect() as conn:
        return list(await conn.execute(select(t.outbox).order_by(t.outbox.c.id)))


async def _claimable(engine: AsyncEngine) -> int:
    return len(await OutboxStore(engine).claim("discord", now=NOW, limit=10))


SERVER_ERROR = discord.DiscordServerError(
    type("Response", (), {"status": 503, "reason": "Service Unavailable"})(), "down"
)


async def test_an_answer_broken_part_way_is_not_queued_again(engine: AsyncEngine) -> None:
    handlers = _handlers(engine)
    response = await _held(engine)
    fake = Interaction(1, SERVER_ERROR)
    await _answer(engine, handlers, response, fake)
    assert fake.sent == ["one"]
    (row,) = await _rows(engine)  # no row of its own: "one" would be posted twice
    # What it carries goes to the sender whole: its tail is among what did not go.
    assert row.status == "pending" and await _claimable(engine) == 1


async def test_an_answer_broken_part_way_elsewhere_leaves_the_news_to_the_sender(
    engine: AsyncEngine,
) -> None:
    handlers = _handlers(engine)
    response = await _held(engine)
    await _answer(engine, handlers, response, Interaction(1, SERVER_ERROR, channel_id=CHAT))
    (row,) = await _rows(engine)
    assert row.status == "pending" and await _claimable(engine) == 1


@pytest.mark.parametrize(
    "error",
    [
        SERVER_ERROR,
        aiohttp.ClientConnectionError("connection reset"),
        TimeoutError(),
        OSError("network is unreachable"),
    ],
    ids=["discord", "aiohttp", "timeout", "os"],
)
async def test_an_answer_that_did_not_go_is_queued_whatever_broke(
    engine: AsyncEngine, error: BaseException
) -> None:
    handlers = _handlers(engine)
    response = await _held(engine)
    await _answer(engine, handlers, response, Interaction(0, error))
    # The announcement it carried is handed to the sender at once, not left leased.
    (row,) = await _rows(engine)
    assert row.status == "pending" and await _claimable(engine) == 1

    plain = Response(say("help.title"), "en", "UTC", response.club_id)
    await _answer(engine, handlers, plain, Interaction(0, error))
    assert len(await _rows(engine)) == 2  # queued as a row of its own


async def test_the_sender_is_called_only_for_what_an_answer_hands_it(engine: AsyncEngine) -> None:
    """`reply` says whether it left anything to the outbox sender: the adapter wakes the
    sender only then (an idle round would compete with the next interaction)."""
    handlers = _handlers(engine)
    ok = ValueError("not raised")
    carried = await _held(engine)
    assert not await _answer(engine, handlers, carried, Interaction(3, ok))  # marked sent
    assert await _claimable(engine) == 0
    elsewhere = await _held(engine)  # in another channel: the sender posts its news
    assert await _answer(engine, handlers, elsewhere, Interaction(3, ok, channel_id=CHAT))
    assert await _claimable(engine) == 1
    plain = Response(say("help.title"), "en", "UTC", carried.club_id)
    assert not await _answer(engine, handlers, plain, Interaction(3, ok))
    assert await _answer(engine, handlers, plain, Interaction(0, SERVER_ERROR))  # queued
