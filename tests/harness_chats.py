"""The Telegram and Discord drivers of the test harness (tests/harness.py): the real
adapters on a virtual clock, against the Telegram emulator and the Discord stand-in."""

from __future__ import annotations

import asyncio
import re
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine
from telegram import Update

from bot.clock import VirtualClock
from bot.telegram_adapter import TelegramConfig, TelegramService
from bot.telegram_adapter.pacing import Limits
from commands.config import CommandConfig
from commands.sweeping import sweep_due
from storage import tables as t
from storage.outbox import OutboxStore
from storage.unit_of_work import unit_of_work_factory
from tests.discord.conftest import GENERAL, GUILD
from tests.discord.inprocess import Adapter
from tests.discord.standin import User
from tests.harness import EPOCH, NO_THROTTLE, Heard, normalise
from tests.telegram.emulator import Emulator, group_chat, person, private_chat


class _ChatDriver:
    """What the Telegram and Discord drivers share: a virtual clock the adapter reads,
    the club's settings and directors applied by a director's command, the sweep, and
    an outbox drained to the end after every step."""

    platform = ""
    engine: AsyncEngine
    config: CommandConfig

    def __init__(self, clock: VirtualClock | None = None) -> None:
        self.clock = clock or VirtualClock(EPOCH)
        self.directors: list[str] = []
        self.settings: dict[str, str] = {}

    def time(self) -> datetime:
        return self.clock.now()

    async def club(
        self, now: datetime, *, name: str | None, timezone: str | None, language: str | None
    ) -> None:
        given = {"name": name, "timezone": timezone, "language": language}
        self.settings.update({k: v for k, v in given.items() if v is not None})

    async def director(self, now: datetime, name: str) -> None:
        self.directors.append(name)

    async def say(self, now: datetime, user: str, text: str, *, private: bool) -> None:
        self.clock.advance_to(now)
        if self.settings:  # the club's chat becomes a club with the settings asked for
            settings, self.settings = self.settings, {}
            words = " ".join(f'{k}:"{v}"' for k, v in settings.items())
            await self.type(self.directors[0], f"/club {words}", private=False, heard=False)
        await self.type(user, text, private=private, heard=True)
        await self.drain()

    async def sweep(self, now: datetime) -> datetime | None:
        self.clock.advance_to(now)
        deadline = await sweep_due(
            uow_factory=unit_of_work_factory(self.engine), config=self.config, now=now
        )
        await self.drain()
        return deadline

    async def type(self, user: str, text: str, *, private: bool, heard: bool) -> None:
        raise NotImplementedError

    async def drain(self) -> None:
        raise NotImplementedError


class TelegramDriver(_ChatDriver):
    """The real Telegram adapter sending to the `telegram-test-api` emulator over HTTP.

    Updates are handed to the Application as its polling would (`process_update`,
    which returns once the update is handled); what the bot sent is read back from the
    emulator, edits applied."""

    platform = "telegram"
    group = -100_555

    def __init__(self, engine: AsyncEngine, emulator: Emulator, token: str) -> None:
        super().__init__()
        self.engine = engine
        self.client = emulator.client(token)
        self.config = CommandConfig()
        self.people: dict[str, dict[str, Any]] = {}
        self.updates = 0
        self.skip = 0  # the emulator's first messages answered the club's set-up
        self.service = TelegramService(
            TelegramConfig(
                token=token,
                api_url=emulator.api_url,
                limits=Limits(per_chat_seconds=0.0, group_per_minute=10_000, per_second=10_000),
                throttle=NO_THROTTLE,
            ),
            uow_factory=unit_of_work_factory(engine),
            command_config=self.config,
            outbox=OutboxStore(engine),
            clock=self.time,
        )
        self.club_chat = str(self.group)

    async def open(self) -> None:
        await self.client.shim("reset")
        await self.service.open()

    async def close(self) -> None:
        await self.service.stop()
        await self.client.close()

    def person(self, name: str) -> dict[str, Any]:
        if name not in self.people:
            self.people[name] = person(7000 + len(self.people) + 1, name)
        return self.people[name]

    async def director(self, now: datetime, name: str) -> None:
        await super().director(now, name)
        ids = [self.person(n)["id"] for n in self.directors]
        await self.client.shim("admins", chatId=self.group, userIds=ids)

    async def type(self, user: str, text: str, *, private: bool, heard: bool) -> None:
        who = self.person(user)
        chat = private_chat(who) if private else group_chat(self.group)
        self.updates += 1
        message: dict[str, Any] = {
            "message_id": self.updates,
            "date": int(self.time().timestamp()),
            "chat": chat,
            "from": who,
            "text": text,
        }
        if text.startswith("/"):
            head = text.split(" ", 1)[0]
            message["entities"] = [{"type": "bot_command", "offset": 0, "length": len(head)}]
        app = self.service.application
        await app.process_update(
            Update.de_json({"update_id": self.updates, "message": message}, app.bot)
        )
        if not heard:
            self.skip = len(await self.client.history())

    async def drain(self) -> None:
        while await self.service.sender.run_once():
            pass

    async def heard_now(self) -> list[Heard]:
        names = {str(p["id"]): n for n, p in self.people.items()}
        out = []
        for item in (await self.client.history())[self.skip :]:
            message = item.get("message") or {}
            if "chat_id" not in message:
                continue
            chat = str(message["chat_id"])
            if "photo" in message or "text" not in message:
                continue  # a picture (its caption is the picture's title)
            text = str(message["text"])
            to = "club" if chat == str(self.group) else f"dm:{names.get(chat, chat)}"
            out.append(Heard(to, normalise(text, names)))
        return out


_SCORE = re.compile(r"^\d+-\d+$|^void$|^reopen$")
_WORDS = re.compile(r'(\w+):"([^"]*)"|(\w+):(\S+)|"([^"]*)"|(\S+)')


def slash_options(declared: list[dict[str, Any]], text: str) -> tuple[str, dict[str, Any]]:
    """Turn a typed command line into a slash command's name and options, the way a
    person fills them in on Discord: `key:value` into the option of that name, bare
    words into the positional options (a score into `score`, a number into `match`,
    names into `player`, then `opponent`), a subcommand's word into `sub`."""
    head, _, rest = text.strip().partition(" ")
    name = head.lstrip("/").lower()
    command = next(c for c in declared if c["name"] == name)
    options = command.get("options") or []
    subs = {o["name"]: o for o in options if o["type"] == 1}
    values: dict[str, Any] = {}
    bare: list[str] = []
    for key, quoted, key2, plain, string, word in _WORDS.findall(rest):
        if key or key2:
            values[key or key2] = quoted if key else plain
        else:
            bare.append(string or word)
    if bare and bare[0] in subs:
        values["sub"] = bare.pop(0)
    elif subs and "settings" in subs:
        values["sub"] = "settings"
    names = (
        {o["name"] for o in (subs[values["sub"]].get("options") or [])}
        if "sub" in values
        else {o["name"] for o in options}
    )
    for word in bare:
        if _SCORE.match(word) and "score" in names and "score" not in values:
            values["score"] = word
        elif word.isdigit() and "match" in names and "match" not in values:
            values["match"] = int(word)
        else:
            slot = next(s for s in ("player", "opponent") if s in names and s not in values)
            values[slot] = word
    return name, values


class DiscordDriver(_ChatDriver):
    """The real Discord adapter, in this process, against the stand-in: typed commands
    become slash commands with options; a step ends when its answer is shown and no
    announcement is still held for it."""

    platform = "discord"

    def __init__(self, adapter: Adapter) -> None:
        assert adapter.app is not None and isinstance(adapter.app.clock, VirtualClock)
        super().__init__(adapter.app.clock)
        self.adapter = adapter
        self.standin = adapter.standin
        self.engine = adapter.app.engine
        self.config = adapter.app.config
        self.people: dict[str, User] = {}
        self.skip: set[int] = set()
        self.club_chat = str(GUILD)  # on Discord the club is the server

    def person(self, name: str) -> User:
        if name not in self.people:
            user = self.standin.user(830_000 + len(self.people) + 1, name)
            self.standin.join(GUILD, user, manage=name in self.directors)
            self.people[name] = user
        return self.people[name]

    async def type(self, user: str, text: str, *, private: bool, heard: bool) -> None:
        name, options = slash_options(self.standin.commands, text)
        where = {} if private else {"guild_id": GUILD, "channel_id": GENERAL}
        interaction = await self.standin.slash(self.person(user), name, **where, **options)
        answer = await self.standin.answer(interaction)
        if not heard:
            self.skip.add(answer.id)

    async def drain(self) -> None:
        outbox = self.adapter.app.outbox if self.adapter.app else None
        assert outbox is not None
        c = t.outbox.c
        held = (
            select(c.id)
            .where(c.platform == "discord", c.status == "pending", c.leased_until.is_not(None))
            .limit(1)
        )
        while True:
            while await self.adapter.service.sender.run_once():
                pass
            async with self.engine.connect() as conn:
                holding = (await conn.execute(held)).first() is not None
            if not holding and await outbox.pending_count("discord") == 0:
                return
            await asyncio.sleep(0.02)  # a row held for an answer being sent, or a lease

    async def heard_now(self) -> list[Heard]:
        names = {str(u.id): n for n, u in self.people.items()}
        out = []
        for message in self.standin.messages.values():
            if message.id in self.skip:
                continue
            if message.ephemeral or message.channel_id in self.standin.dm_channels:
                interaction = self.standin.interactions.get(message.interaction_id or 0)
                user = (
                    interaction.user.id
                    if interaction is not None
                    else self.standin.dm_channels[message.channel_id]
                )
                to = f"dm:{names.get(str(user), user)}"
            else:
                to = "club"
            if message.images() or message.pngs():
                text = normalise(message.content, names)  # the embed shows the picture
            else:
                text = normalise(message.text, names)
            if text:
                out.append(Heard(to, text))
        return out
