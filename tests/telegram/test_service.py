"""Offline: command menus, button tokens, replies that cannot go now, the webhook."""

from __future__ import annotations

import asyncio
import hashlib
import json
from datetime import UTC, datetime
from types import SimpleNamespace

import httpx
import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.settings import Settings
from bot.telegram_adapter import TelegramConfig, config_from_settings, from_app
from bot.telegram_adapter.webhook import SECRET_HEADER, WebhookServer
from commands.catalog import template
from commands.config import CommandConfig
from commands.registry import COMMANDS
from storage.outbox import OutboxStore
from storage.unit_of_work import unit_of_work_factory
from tests.telegram.conftest import DIRECTOR, Harness
from tests.telegram.fake import GROUP, callback_update, message_update, user

ANA = user(DIRECTOR, "Ana")
BOB = user(2002, "Bob")
NEW_CUP = (
    '/tournament new name:"January Cup" preset:hgv-backgammon start:"2026-01-31 20:00" approval:no'
)


async def test_the_command_menus_players_for_everyone_all_for_administrators(
    harness: Harness,
) -> None:
    menus = {
        c.params["scope"]["type"]: [cmd["command"] for cmd in c.params["commands"]]
        for c in harness.request.sent("setMyCommands")
        if "language_code" not in c.params
    }
    players = [s.name for s in COMMANDS if s.role == "player"]
    assert menus["default"] == players
    assert menus["all_chat_administrators"] == [s.name for s in COMMANDS]
    described = harness.request.sent("setMyCommands")[0].params["commands"]
    assert {"command": "register", "description": "join the club and the open tournament"} in (
        described
    )


async def test_a_button_command_too_long_for_callback_data_goes_by_token(
    harness: Harness,
) -> None:
    h = harness
    await h.send(message_update(1, ANA, NEW_CUP))
    long_command = '/register name:"Bartholomew Longname-Featherstonehaugh the Third"'
    data = await h.service.messenger.buttons.data_for(long_command)
    assert data.startswith("#") and len(data.encode()) <= 64
    # A fresh adapter (a restart) still knows the token: it is stored.
    h.service.messenger.buttons._known.clear()
    await h.send(callback_update(2, BOB, data, chat_id=GROUP, message_id=5))
    assert "Bartholomew" in h.request.texts(GROUP)[-1]


async def test_a_button_token_stored_before_the_shared_store_still_works(
    harness: Harness,
) -> None:
    h = harness
    await h.send(message_update(1, ANA, NEW_CUP))
    # What the Telegram adapter stored before: "#" + 24 hex digits of the command's
    # SHA-256, keyed without a prefix in the button_tokens table.
    command = '/register name:"Philippa Longname-Featherstonehaugh of the Old Table"'
    token = "#" + hashlib.sha256(command.encode()).hexdigest()[:24]
    async with h.service.handlers.uow_factory() as uow:
        await uow.buttons.put(token, command, h.clock.now())
        await uow.commit()
    await h.send(callback_update(2, BOB, token, chat_id=GROUP, message_id=5))
    assert "Philippa" in h.request.texts(GROUP)[-1]


async def test_a_reply_that_cannot_go_now_is_queued_not_lost(harness: Harness) -> None:
    h = harness
    await h.send(message_update(1, ANA, NEW_CUP))
    await h.drain()
    h.request.fail("sendMessage", 502, "Bad Gateway")
    await h.send(message_update(2, BOB, "/register"))
    queued = [r for r in await h.rows() if r.status == "pending"]
    assert any("register.done" in json.dumps(r.payload) for r in queued)
    await h.drain()
    assert "Bob, you are entered" in h.request.texts(GROUP)[-1]


async def test_a_button_in_a_private_chat_loses_its_keyboard_once_used(harness: Harness) -> None:
    h = harness
    await h.send(message_update(1, ANA, NEW_CUP))
    await h.send(message_update(2, BOB, "/register"))
    await h.send(callback_update(3, BOB, "/confirm", chat_id=BOB["id"], message_id=9))
    (removed,) = h.request.sent("editMessageReplyMarkup")
    assert int(removed.params["message_id"]) == 9 and "reply_markup" not in removed.params
    assert "confirmed" in h.request.texts(BOB["id"])[-1]


async def test_the_webhook_takes_updates_only_with_the_secret(harness: Harness) -> None:
    app = harness.service.application
    server = WebhookServer(app, listen="127.0.0.1", port=0, path="/tg/hook", secret="s3cret")
    await server.start()
    try:
        update = message_update(7, BOB, "/help")
        url = f"http://127.0.0.1:{server.bound_port}/tg/hook"
        async with httpx.AsyncClient() as client:
            refused = await client.post(url, json=update, headers={SECRET_HEADER: "wrong"})
            missing = await client.post(url, json=update)
            elsewhere = await client.post(
                url + "x", json=update, headers={SECRET_HEADER: "s3cret"}
            )
            assert (refused.status_code, missing.status_code, elsewhere.status_code) == (
                403,
                403,
                404,
            )
            assert app.update_queue.empty()
            taken = await client.post(url, json=update, headers={SECRET_HEADER: "s3cret"})
        assert taken.status_code == 200
        got = await asyncio.wait_for(app.update_queue.get(), timeout=1)
        assert got.update_id == 7 and got.message.text == "/help"
    finally:
        await server.stop()


def test_config_reads_the_settings_and_derives_urls() -> None:
    class Secret:
        def __init__(self, value: str) -> None:
            self.value = value

        def get_secret_value(self) -> str:
            return self.value

    class Settings:
        telegram_token = Secret("123:abc")
        telegram_api_url = "http://127.0.0.1:8081"
        telegram_webhook_url = "https://bot.example.org/tg"
        telegram_webhook_secret = Secret("x")
        telegram_webhook_port = "9443"

    config = config_from_settings(Settings())
    assert config.token == "123:abc" and config.webhook_secret == "x"
    assert config.webhook_port == 9443
    assert config.base_url == "http://127.0.0.1:8081/bot"
    assert config.base_file_url == "http://127.0.0.1:8081/file/bot"
    assert TelegramConfig(token="t").base_url == "https://api.telegram.org/bot"
    assert TelegramConfig(token="t").base_file_url == "https://api.telegram.org/file/bot"

    class Unset:
        telegram_token = None

    with pytest.raises(ValueError, match="CLUBTD_TELEGRAM_TOKEN"):
        config_from_settings(Unset())


def test_a_blank_webhook_secret_is_unset_so_one_is_generated() -> None:
    settings = Settings(
        telegram_token="123:abc",  # type: ignore[arg-type]
        telegram_webhook_secret="   ",  # type: ignore[arg-type]
    )
    assert config_from_settings(settings).webhook_secret is None


async def test_from_app_builds_the_adapter_clubtd_run_starts(engine: AsyncEngine) -> None:
    """bot.runner.ADAPTERS["telegram"] = from_app: settings, storage, clock and poke."""
    pokes: list[str] = []
    settings = Settings(telegram_token="123:abc", telegram_api_url="http://127.0.0.1:1/bot")
    app = SimpleNamespace(
        settings=settings,
        uow_factory=unit_of_work_factory(engine),
        config=CommandConfig(),
        outbox=OutboxStore(engine),
        clock=SimpleNamespace(now=lambda: datetime(2026, 1, 30, tzinfo=UTC)),
        scheduler=SimpleNamespace(poke=lambda deadline=None: pokes.append("poked")),
    )
    service = from_app(app)  # type: ignore[arg-type]
    assert service.platform == "telegram"
    assert service.config.token == "123:abc"
    assert service.application.bot.base_url == "http://127.0.0.1:1/bot123:abc"
    # The handlers use the app's own clock, storage, settings and scheduler, not copies
    # or defaults: each is the very object the app holds.
    handlers = service.handlers
    assert handlers.poke is app.scheduler.poke
    assert handlers.clock is app.clock.now
    assert handlers.uow_factory is app.uow_factory
    assert handlers.config is app.config
    assert handlers.clock() == datetime(2026, 1, 30, tzinfo=UTC)
    assert pokes == []  # building the adapter pokes nobody


async def test_the_command_menus_are_described_in_each_language(harness: Harness) -> None:
    """Telegram shows a user the menu of their app's language (setMyCommands language_code)."""
    described = {
        (c.params.get("language_code"), c.params["scope"]["type"]): {
            cmd["command"]: cmd["description"] for cmd in c.params["commands"]
        }
        for c in harness.request.sent("setMyCommands")
    }
    assert {code for code, _ in described} == {None, "es", "ro", "pl"}
    for code in ("es", "ro", "pl"):
        menu = described[(code, "default")]
        assert menu["register"] == template(code, "help.register")
        assert menu["register"] != described[(None, "default")]["register"]
