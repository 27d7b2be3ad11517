"""The `telegram-test-api` emulator with our shim (emulator/server.js), run by the tests.

Install once: `npm ci --prefix tests/telegram/emulator`. Without node or the package
the emulator tests skip with that hint, unless CLUBTD_REQUIRE_EMULATOR=1 (CI): then
they fail.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

HERE = Path(__file__).parent / "emulator"
INSTALL = "npm ci --prefix tests/telegram/emulator"


def missing() -> str | None:
    """Return why the emulator cannot run here, or None when it can."""
    if shutil.which("node") is None:
        return "node is not installed (the Telegram emulator runs on Node 20)"
    if not (HERE / "node_modules" / "telegram-test-api").is_dir():
        return f"the Telegram emulator is not installed: run `{INSTALL}`"
    return None


@contextmanager
def running(timeout: float = 15.0) -> Iterator[Emulator]:
    """Start the emulator on a free loopback port; stop it afterwards."""
    process = subprocess.Popen(
        ["node", "server.js", "--host", "127.0.0.1", "--port", "0"],
        cwd=HERE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        deadline = time.monotonic() + timeout
        line = ""
        while time.monotonic() < deadline and not line.startswith("ready"):
            line = process.stdout.readline()
            if not line and process.poll() is not None:
                break
        if not line.startswith("ready"):
            err = process.stderr.read() if process.stderr else ""
            raise RuntimeError(f"the Telegram emulator did not start: {line!r} {err}")
        yield Emulator(int(line.split()[1]))
    finally:
        process.terminate()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@dataclass
class Emulator:
    port: int

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_url(self) -> str:
        """What CLUBTD_TELEGRAM_API_URL would say."""
        return f"{self.url}/bot"

    def client(self, token: str) -> Client:
        return Client(self, token)


def person(user_id: int, name: str) -> dict[str, Any]:
    return {"id": user_id, "is_bot": False, "first_name": name, "username": name.lower()}


def group_chat(chat_id: int) -> dict[str, Any]:
    return {"id": chat_id, "type": "supergroup", "title": "Club"}


def private_chat(who: dict[str, Any]) -> dict[str, Any]:
    return {"id": who["id"], "type": "private", "first_name": who["first_name"]}


class Client:
    """People in the emulated Telegram, and what they see of one bot."""

    def __init__(self, emulator: Emulator, token: str) -> None:
        self.emulator = emulator
        self.token = token
        self.http = httpx.AsyncClient(base_url=emulator.url, timeout=60)

    async def close(self) -> None:
        await self.http.aclose()

    async def post(self, path: str, **body: Any) -> Any:
        response = await self.http.post(path, json=body)
        response.raise_for_status()
        return response.json().get("result")

    async def type(self, who: dict[str, Any], chat: dict[str, Any], text: str) -> None:
        """`who` types `text` in `chat` (a command gets its bot_command entity)."""
        message: dict[str, Any] = {
            "botToken": self.token,
            "from": who,
            "chat": chat,
            "text": text,
            "date": int(time.time()),
        }
        if text.startswith("/"):
            head = text.split(" ", 1)[0]
            message["entities"] = [{"type": "bot_command", "offset": 0, "length": len(head)}]
            await self.post("/sendCommand", **message)
        else:
            await self.post("/sendMessage", **message)

    async def press(
        self, who: dict[str, Any], message: dict[str, Any], label: str
    ) -> dict[str, Any]:
        """`who` taps the button labelled `label` under a bot message; return the button."""
        markup = message["message"].get("reply_markup") or {}
        buttons = [b for row in markup.get("inline_keyboard", []) for b in row]
        (button,) = [b for b in buttons if b["text"] == label]
        chat_id = int(message["message"]["chat_id"])
        chat = group_chat(chat_id) if chat_id < 0 else private_chat(who)
        await self.post(
            "/sendCallback",
            botToken=self.token,
            **{"from": who},
            message={
                "message_id": message["messageId"],
                "chat": chat,
                "text": message["message"].get("text", ""),
            },
            data=button["callback_data"],
        )
        return button

    async def history(self) -> list[dict[str, Any]]:
        return list(await self.post("/getUpdatesHistory", token=self.token) or [])

    async def bot_messages(self, chat_id: int) -> list[dict[str, Any]]:
        """Return the bot's messages in a chat, as they are now (edits applied)."""
        return [
            item
            for item in await self.history()
            if "message" in item
            and "chat_id" in item["message"]
            and str(item["message"]["chat_id"]) == str(chat_id)
        ]

    async def wait_for(
        self,
        chat_id: int,
        predicate: Callable[[dict[str, Any]], bool],
        *,
        seconds: float = 10.0,
    ) -> dict[str, Any]:
        """Return the first bot message in a chat that satisfies `predicate`; wait for it."""
        deadline = time.monotonic() + seconds
        while True:
            for item in await self.bot_messages(chat_id):
                if predicate(item):
                    return item
            if time.monotonic() > deadline:
                texts = [m["message"].get("text") for m in await self.bot_messages(chat_id)]
                raise AssertionError(f"no such bot message in {chat_id}; it has: {texts}")
            await asyncio.sleep(0.05)

    async def next_message(
        self, chat_id: int, after: int, *, contains: str = "", seconds: float = 10.0
    ) -> Any:
        """Wait (server side) for the bot's next message in a chat after message `after`
        whose text has `contains`; None after `seconds`."""
        return await self.post(
            "/shim/next",
            token=self.token,
            chatId=chat_id,
            after=after,
            contains=contains,
            timeout=seconds,
        )

    async def shim(self, name: str, **body: Any) -> Any:
        return await self.post(f"/shim/{name}", **body)


def require_emulator() -> str | None:
    """Return a skip reason, or None; under CLUBTD_REQUIRE_EMULATOR=1 raise instead."""
    reason = missing()
    if reason is not None and os.environ.get("CLUBTD_REQUIRE_EMULATOR") == "1":
        raise RuntimeError(f"CLUBTD_REQUIRE_EMULATOR=1 but {reason}")
    return reason
