"""Telegram's way past one process: webhook mode behind a load balancer, two `clubtd run`
processes on one PostgreSQL. Both register the same webhook with the same secret (derived
from the token when none is set), each takes the updates routed to it, every command is
answered once, and the outbox they share sends every message once."""

from __future__ import annotations

import asyncio
import itertools
import os
import signal
import sys
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
import pytest_asyncio
from aiohttp import web

from tests.ports import free_port, free_ports
from tests.telegram.emulator import Client, Emulator, group_chat, person

CLUBTD = Path(sys.executable).parent / "clubtd"
ROOT = Path(__file__).resolve().parents[2]
GROUP_ID = -100_888
GROUP = group_chat(GROUP_ID)
ANA = person(5101, "Ana")
PLAYERS = [person(6101 + i, name) for i, name in enumerate(["Alice", "Bob", "Cruz", "Dan"])]
START = (datetime.now(UTC) + timedelta(days=30)).strftime("%Y-%m-%d 20:00")
NEW_CUP = f'/tournament new name:"January Cup" preset:hgv-backgammon start:"{START}" approval:no'


@dataclass
class Balancer:
    """A round-robin load balancer in front of the processes' webhooks."""

    backends: list[int]
    port: int = field(default_factory=free_port)
    routed: Counter[int] = field(default_factory=Counter)
    refused: list[int] = field(default_factory=list)
    _turn: Iterator[int] = field(init=False)
    _runner: web.AppRunner | None = None

    async def start(self) -> None:
        self._turn = itertools.cycle(self.backends)
        app = web.Application()
        app.router.add_post("/tg/hook", self._forward)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", self.port).start()

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    async def _forward(self, request: web.Request) -> web.Response:
        backend = next(self._turn)
        headers = {k: v for k, v in request.headers.items() if k.lower().startswith("x-")}
        async with httpx.AsyncClient(timeout=30) as http:
            answer = await http.post(
                f"http://127.0.0.1:{backend}/tg/hook",
                content=await request.read(),
                headers={**headers, "Content-Type": "application/json"},
            )
        self.routed[backend] += 1
        if answer.status_code != 200:
            self.refused.append(answer.status_code)
        return web.Response(status=answer.status_code, body=answer.content)


@dataclass
class Farm:
    client: Client
    balancer: Balancer
    processes: list[asyncio.subprocess.Process]
    logs: list[Path]

    def output(self) -> str:
        return "\n".join(log.read_text(errors="replace")[-3000:] for log in self.logs)


@pytest_asyncio.fixture
async def farm(emulator: Emulator, database_url: str, tmp_path: Path) -> AsyncIterator[Farm]:
    token = "4242:WEBHOOKFARM"
    client = emulator.client(token)
    await client.shim("reset")
    await client.shim("admins", chatId=GROUP_ID, userIds=[ANA["id"]])
    *ports, front = free_ports(3)
    balancer = Balancer(ports, port=front)
    await balancer.start()
    farm = Farm(client, balancer, [], [tmp_path / f"clubtd-{n}.log" for n in range(2)])
    try:
        for port, log in zip(ports, farm.logs, strict=True):
            env = {
                **{k: v for k, v in os.environ.items() if not k.startswith("CLUBTD_")},
                "PYTHONPATH": str(ROOT),
                "CLUBTD_DATABASE_URL": database_url,
                "CLUBTD_TELEGRAM_TOKEN": token,
                "CLUBTD_TELEGRAM_API_URL": emulator.api_url,
                "CLUBTD_TELEGRAM_WEBHOOK_URL": f"http://127.0.0.1:{balancer.port}/tg/hook",
                "CLUBTD_TELEGRAM_WEBHOOK_LISTEN": "127.0.0.1",
                "CLUBTD_TELEGRAM_WEBHOOK_PORT": str(port),
            }
            with log.open("ab") as handle:
                farm.processes.append(
                    await asyncio.create_subprocess_exec(
                        str(CLUBTD), "run", env=env, stdout=handle, stderr=handle, cwd=tmp_path
                    )
                )
        for _ in range(400):  # up to 40 s for both to register the webhook
            if all("Telegram adapter started" in log.read_text() for log in farm.logs):
                break
            if any(p.returncode is not None for p in farm.processes):
                break
            await asyncio.sleep(0.1)
        else:
            raise AssertionError(f"clubtd run did not start:\n{farm.output()}")
        yield farm
    finally:
        for process in farm.processes:
            if process.returncode is None:
                process.send_signal(signal.SIGTERM)
                try:
                    await asyncio.wait_for(process.wait(), timeout=15)
                except TimeoutError:
                    process.kill()
                    await process.wait()
        await balancer.stop()
        await client.close()


def _text(item: dict[str, Any]) -> str:
    return str(item["message"].get("text") or "")


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
async def test_two_webhook_processes_share_the_updates_and_answer_each_once(
    farm: Farm,
) -> None:
    client = farm.client
    assert all(p.returncode is None for p in farm.processes), farm.output()
    await client.type(ANA, GROUP, NEW_CUP)
    await client.wait_for(GROUP_ID, lambda m: "January Cup" in _text(m), seconds=30)
    for player in PLAYERS:
        await client.type(player, GROUP, "/register")
        name = player["first_name"]
        await client.wait_for(GROUP_ID, lambda m, n=name: f"{n}, you are" in _text(m))

    # Both processes took updates, and neither refused one (same secret on both).
    assert not farm.balancer.refused, (farm.balancer.refused, farm.output())
    assert len(farm.balancer.routed) == 2 and min(farm.balancer.routed.values()) >= 2
    # Every command answered once: one creation, one answer per registration.
    texts = [_text(m) for m in await client.bot_messages(GROUP_ID)]
    assert sum("is open for entries" in t for t in texts) == 1, texts
    for player in PLAYERS:
        name = player["first_name"]
        assert sum(t.startswith(f"{name}, you are") for t in texts) == 1, texts
    doubled = [t for t, times in Counter(texts).items() if times > 1]
    assert not doubled, doubled


def test_the_derived_secret_is_the_same_for_a_token_and_one_telegram_accepts() -> None:
    from bot.telegram_adapter.webhook import shared_secret

    secret = shared_secret("4242:WEBHOOKFARM")
    assert secret == shared_secret("4242:WEBHOOKFARM") != shared_secret("4243:WEBHOOKFARM")
    # Telegram takes 1-256 characters of A-Z, a-z, 0-9, _ and -.
    assert 1 <= len(secret) <= 256 and secret.replace("_", "").replace("-", "").isalnum()
    assert "4242" not in secret  # the token is not readable from it
