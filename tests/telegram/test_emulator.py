"""End to end through real HTTP: the adapter against the `telegram-test-api` emulator.

A small tournament in a Telegram group: a director creates it, players register and
confirm and check in with buttons, a score is reported and accepted with a button, the
standings are posted as a picture and then edited in place, a player's director command is refused,
and a player who never started the bot is told in the group. The database is a real
SQLite file; the outbox sender is the real one, running as in `clubtd run`.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest_asyncio
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.telegram_adapter import TelegramConfig, TelegramService
from bot.telegram_adapter.pacing import Limits
from commands.config import CommandConfig
from commands.sweeping import sweep_due
from storage import tables as t
from storage.engine import make_engine
from storage.outbox import OutboxStore
from storage.unit_of_work import unit_of_work_factory
from tests.ports import free_port
from tests.telegram.conftest import Clock
from tests.telegram.emulator import Client, Emulator, group_chat, person, private_chat

GROUP_ID = -100777
ANA = person(5001, "Ana")  # a group administrator
DORA = person(5002, "Dora")  # in CLUBTD_DIRECTORS, not an administrator
PLAYERS = [person(6001, "Alice"), person(6002, "Bob"), person(6003, "Cruz")]
GROUP = group_chat(GROUP_ID)
NEW_CUP = (
    '/tournament new name:"January Cup" preset:hgv-backgammon start:"2026-01-31 20:00" approval:no'
)
_tokens = itertools.count(1)


@dataclass
class Bot:
    service: TelegramService
    client: Client
    clock: Clock
    engine: AsyncEngine
    config: CommandConfig

    async def sweep(self) -> None:
        """What the scheduler does at a deadline: apply what is due, then send it."""
        uow_factory = unit_of_work_factory(self.engine)
        await sweep_due(uow_factory=uow_factory, config=self.config, now=self.clock.now())
        self.service.wake()

    async def say(self, who: dict[str, Any], text: str, *, contains: str) -> dict[str, Any]:
        """`who` types in the group; return the bot's answer (which says `contains`)."""
        await self.client.type(who, GROUP, text)
        return await self.client.wait_for(GROUP_ID, lambda m: contains in _text(m))


def _text(item: dict[str, Any]) -> str:
    return str(item["message"].get("text") or "")


@pytest_asyncio.fixture
async def bot(emulator: Emulator, sqlite_url: str) -> AsyncIterator[Bot]:
    token = f"{next(_tokens)}:E2E"
    client = emulator.client(token)
    await client.shim("reset")
    await client.shim("admins", chatId=GROUP_ID, userIds=[ANA["id"]])
    engine = make_engine(sqlite_url)
    clock = Clock(datetime(2026, 1, 30, 12, 0, tzinfo=UTC))
    config = CommandConfig(directors=frozenset({("telegram", str(DORA["id"]))}))
    service = TelegramService(
        TelegramConfig(
            token=token,
            api_url=emulator.api_url,
            poll_timeout=2,
            outbox_interval=0.2,
            limits=Limits(per_chat_seconds=0.05, group_per_minute=1000, per_second=1000),
        ),
        uow_factory=unit_of_work_factory(engine),
        command_config=config,
        outbox=OutboxStore(engine),
        clock=clock.now,
    )
    await service.start()
    try:
        yield Bot(service, client, clock, engine, config)
    finally:
        await service.stop()
        await client.close()
        await engine.dispose()


async def test_a_small_tournament_in_a_telegram_group(bot: Bot) -> None:
    client = bot.client
    state = await client.shim("state")
    directors = [c["command"] for c in state["commands"]["all_chat_administrators"]]
    assert directors[-2:] == ["status", "log"], directors
    assert "draw" not in [c["command"] for c in state["commands"]["default"]]

    # A group administrator creates the tournament; the group becomes a club.
    await bot.say(ANA, NEW_CUP, contains="January Cup is open for entries")

    # Players register, then confirm with the button under the bot's answer.
    for player in PLAYERS:
        answer = await bot.say(player, "/register", contains=f"{player['first_name']}, you are")
        await client.press(player, answer, "Confirm")
        after = answer["messageId"]
        # The answer updates the message the button was under (issue 20).
        await client.wait_for(
            GROUP_ID, lambda m, a=after: "is confirmed" in _text(m) and m["messageId"] == a
        )
    assert len((await client.shim("state"))["callbackAnswers"]) == len(PLAYERS)

    # Cruz never started the bot: his check-in reminder becomes a mention in the group.
    alice, bob, cruz = PLAYERS
    await client.shim("block", chatId=cruz["id"])
    bot.clock.at = datetime(2026, 1, 31, 19, 5, tzinfo=UTC)  # check-in opens at 19:00
    await bot.sweep()
    mention = await client.wait_for(GROUP_ID, lambda m: "start=hi" in _text(m))
    assert f"tg://user?id={cruz['id']}" in _text(mention)

    # The others check in with the button of their private reminder; Cruz types it.
    for player in (alice, bob):
        reminder = await client.wait_for(player["id"], lambda m: "Check-in" in _text(m))
        await client.press(player, reminder, "Check in")
        await client.wait_for(player["id"], lambda m: "is checked in" in _text(m))
        markup = (await client.bot_messages(player["id"]))[0]["message"].get("reply_markup")
        assert markup is None  # the used button is gone
    await bot.say(cruz, "/checkin", contains="Cruz is checked in")
    # Cruz follows the deep link: Telegram sends "/start hi" in a private chat.
    await client.shim("block", chatId=cruz["id"], blocked=False)
    await client.type(cruz, private_chat(cruz), "/start hi")
    await client.wait_for(cruz["id"], lambda m: _text(m).startswith("Commands:"))

    # A player may not draw; the director in CLUBTD_DIRECTORS may.
    await bot.say(bob, "/draw", contains="Only directors can use /draw.")
    await bot.say(DORA, "/draw", contains="Group")

    # Two results, each reported by one player and accepted with the other's button.
    bot.clock.at = datetime(2026, 1, 31, 20, 5, tzinfo=UTC)
    names = {p["id"]: p for p in PLAYERS}
    for round_ in range(2):
        white, black, number = await _open_match(bot, names)
        await client.type(white, GROUP, f"/report 3-{round_} match:{number}")
        await client.wait_for(
            GROUP_ID, lambda m, n=number: f"{n}" in _text(m) and "3-" in _text(m)
        )
        pending = await client.wait_for(
            black["id"], lambda m, n=number: "Accept" in str(m["message"].get("reply_markup"))
        )
        await client.press(black, pending, "Accept")
        await client.wait_for(black["id"], lambda m, n=number: f"Match {n}:" in _text(m))
        # The live board (issue 20): the draw's message, its tables edited in place as
        # text (as it was posted), never posted again.
        live = await _standings(bot)
        assert len(live) == 1, live
        message = await client.wait_for(GROUP_ID, lambda m, i=live[0]: m["messageId"] == i)
        assert "Draw made" in _text(message) and "Group 1" in _text(message)
        if round_ == 1:
            assert message["message"].get("edit_date")
    calls = [method for method, chat in (await client.shim("state"))["calls"]]
    assert calls.count("sendPhoto") == 0 and calls.count("editMessageText") >= 2


async def _open_match(
    bot: Bot, names: dict[int, dict[str, Any]]
) -> tuple[dict[str, Any], dict[str, Any], int]:
    """Return (white, black, number) of a ready group match with no result yet."""
    uow_factory = unit_of_work_factory(bot.engine)
    async with uow_factory() as uow:
        club = await uow.clubs.for_chat("telegram", str(GROUP_ID))
        assert club is not None
        state = await uow.tournaments.current(club.id)
        assert state is not None
        accounts = {}
        for player_id in state.entries:
            for platform, external in await uow.players.accounts(player_id):
                if platform == "telegram":
                    accounts[player_id] = names[int(external)]
    for match in sorted(state.matches.values(), key=lambda m: m.number):
        if match.is_ready and not match.is_final and match.report is None:
            assert match.white is not None and match.black is not None
            return accounts[match.white], accounts[match.black], match.number
    raise AssertionError("no open match")


async def _standings(bot: Bot) -> list[int]:
    """Return the distinct Telegram message ids the live board rows went out as."""
    for _ in range(100):
        async with bot.engine.connect() as conn:
            rows = (
                await conn.execute(
                    select(t.outbox.c.platform_message_id, t.outbox.c.status).where(
                        t.outbox.c.coalesce_key.like("board:%")
                    )
                )
            ).all()
        if rows and all(r.status in ("sent", "superseded") for r in rows):
            return sorted({int(r.platform_message_id) for r in rows if r.status == "sent"})
        await asyncio.sleep(0.05)
    raise AssertionError(f"board not sent: {rows}")


async def test_private_chat_and_a_refused_dm_command(bot: Bot) -> None:
    """A private chat is "user:<id>"; someone the bot does not know is told to register."""
    stranger = person(7001, "Eve")
    await bot.client.type(stranger, private_chat(stranger), "/me")
    answer = await bot.client.wait_for(stranger["id"], lambda m: bool(_text(m)))
    assert "Register first" in _text(answer)


async def test_a_stranger_is_answered_in_the_language_of_their_telegram_app(bot: Bot) -> None:
    """Telegram tells the app's language (language_code): a newcomer is answered in it."""
    stranger = {**person(7002, "Zofia"), "language_code": "pl"}
    await bot.client.type(stranger, private_chat(stranger), "/me")
    answer = await bot.client.wait_for(stranger["id"], lambda m: bool(_text(m)))
    assert _text(answer).startswith("Najpierw zapisz się tam"), _text(answer)


async def test_webhook_mode_with_a_secret_token(emulator: Emulator, sqlite_url: str) -> None:
    """With a webhook URL set, updates arrive by HTTP POST carrying the secret token."""
    port = free_port()
    token = f"{next(_tokens)}:HOOK"
    client = emulator.client(token)
    engine = make_engine(sqlite_url)
    service = TelegramService(
        TelegramConfig(
            token=token,
            api_url=emulator.api_url,
            webhook_url=f"http://127.0.0.1:{port}/telegram/hook",
            webhook_secret="s3cret-token",
            webhook_listen="127.0.0.1",
            webhook_port=port,
        ),
        uow_factory=unit_of_work_factory(engine),
        command_config=CommandConfig(),
        outbox=OutboxStore(engine),
        clock=Clock().now,
    )
    await service.start()
    try:
        assert service.application.updater is not None
        assert not service.application.updater.running  # no polling in webhook mode
        stranger = person(7002, "Fay")
        await client.type(stranger, private_chat(stranger), "/me")
        answer = await client.wait_for(stranger["id"], lambda m: bool(_text(m)))
        assert "Register first" in _text(answer)
        async with httpx.AsyncClient() as http:
            forged = await http.post(
                f"http://127.0.0.1:{port}/telegram/hook",
                json={"update_id": 1, "message": {}},
                headers={"X-Telegram-Bot-Api-Secret-Token": "guess"},
            )
        assert forged.status_code == 403
    finally:
        await service.stop()
        await client.close()
        await engine.dispose()
