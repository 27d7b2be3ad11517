"""`clubtd web`, `clubtd run` with CLUBTD_WEB_LISTEN, the settings (INTERFACE §2, §5)
and the demo's pages."""

from __future__ import annotations

import asyncio
import io
import os
import re
from pathlib import Path

import aiohttp
import pytest

from bot.bootstrap import App, command_config
from bot.runner import serve
from bot.settings import Settings, SettingsError, listen_address, web_base
from tests.bot.conftest import Clubtd, invoke
from tests.ports import free_port


def test_the_pages_are_off_by_default_and_links_use_the_listen_address() -> None:
    settings = Settings()
    assert settings.web_listen is None and settings.web_url is None
    assert web_base(settings) == "http://127.0.0.1:8080"
    assert web_base(settings, "0.0.0.0:9000") == "http://0.0.0.0:9000"
    assert command_config(settings).web_url == "http://127.0.0.1:8080"


def test_web_settings_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLUBTD_WEB_LISTEN", "0.0.0.0:8081")
    monkeypatch.setenv("CLUBTD_WEB_URL", "https://cup.example.org/")
    settings = Settings()
    assert listen_address(settings.web_listen or "") == ("0.0.0.0", 8081)
    assert command_config(settings).web_url == "https://cup.example.org"
    assert listen_address("[::1]:8080") == ("::1", 8080)


@pytest.mark.parametrize(
    ("name", "value"),
    [("CLUBTD_WEB_LISTEN", "8080"), ("CLUBTD_WEB_LISTEN", "host:port"), ("CLUBTD_WEB_URL", "x")],
)
def test_bad_web_settings_are_refused_with_an_example(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str
) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(SettingsError, match=r"e\.g\."):
        Settings()


def test_clubtd_web_refuses_a_bad_listen_address(clubtd: Clubtd) -> None:
    result = clubtd("web", "--listen", "nowhere")
    assert result.exit_code == 2
    assert "HOST:PORT" in result.stderr


class Probe:
    """An adapter that asks the pages' address once everything started, then stops."""

    platform = "telegram"

    def __init__(self, app: App, port: int, seen: list[int], stop: asyncio.Event) -> None:
        self.port, self.seen, self.stop_event = port, seen, stop

    async def start(self) -> None:
        async with (
            aiohttp.ClientSession() as session,
            session.get(f"http://127.0.0.1:{self.port}/c/{'0' * 32}") as answer,
        ):
            self.seen.append(answer.status)
        self.stop_event.set()

    async def stop(self) -> None:
        pass


def test_run_serves_the_pages_when_web_listen_is_set(tmp_path: Path) -> None:
    port = free_port()
    seen: list[int] = []
    stop = asyncio.Event()
    settings = Settings(
        telegram_token="123:abc",
        web_listen=f"127.0.0.1:{port}",
        database_url=f"sqlite:///{tmp_path / 'run.db'}",
    )
    status = serve(
        settings,
        adapters={"telegram": lambda app: Probe(app, port, seen, stop)},
        stop=stop,
        err=io.StringIO(),
    )
    assert status == 0
    assert seen == [404]  # the server answered: an unknown club's page is not there


def test_run_with_only_the_pages_needs_no_chat_token(tmp_path: Path) -> None:
    stop = asyncio.Event()
    stop.set()  # start, then stop at once
    settings = Settings(
        web_listen=f"127.0.0.1:{free_port()}", database_url=f"sqlite:///{tmp_path / 'p.db'}"
    )
    assert serve(settings, adapters={}, stop=stop, err=io.StringIO()) == 0


def test_the_demo_ends_by_saying_how_to_open_its_pages(clubtd: Clubtd) -> None:
    result = clubtd("demo")
    assert result.exit_code == 0, result.stderr
    out = " ".join(result.stdout.split())  # rich wraps long lines
    assert "clubtd web --db sqlite:///clubtd-demo.db" in out
    links = re.findall(r"http://127\.0\.0\.1:8080/c/[0-9a-f]{32}(?:/t/\d+)?", out)
    assert any("/t/" in link for link in links) and any("/t/" not in link for link in links)
    assert "Follow it live" in out  # the draw and the final carried the link
    # The demo's page shows the HGV knockout: a play-in, byes, the Last Chance.
    tournament = next(link for link in links if "/t/" in link)
    html = asyncio.run(_page("sqlite:///clubtd-demo.db", tournament.split("8080", 1)[1]))
    for word in ("Play-in", "Last Chance", "bye", "Final", "grace", "2.30"):
        assert word in html, word


async def _page(url: str, path: str) -> str:
    from aiohttp.test_utils import TestClient, TestServer

    from bot.web.server import PageStore, make_app
    from storage.engine import make_engine
    from storage.unit_of_work import unit_of_work_factory

    engine = make_engine(url)
    store = PageStore(engine=engine, uow_factory=unit_of_work_factory(engine), base_url="x")
    try:
        async with TestClient(TestServer(make_app(store))) as client:
            answer = await client.get(path)
            assert answer.status == 200
            return await answer.text()
    finally:
        await engine.dispose()


def test_clubtd_web_serves_the_clubs_pages_until_stopped(tmp_path: Path) -> None:
    import signal
    import subprocess
    import sys
    import time
    import urllib.error
    import urllib.request

    database = f"sqlite:///{tmp_path / 'w.db'}"
    setup = tmp_path / "s.t"
    setup.write_text('@club name:"HG"\n@director ana\nana: /club web:on\n', encoding="utf-8")
    made = invoke("console", "--script", str(setup), "--db", database)
    assert made.exit_code == 0, made.stderr
    found = re.search(r"/c/[0-9a-f]{32}", made.stdout)
    assert found is not None
    port = free_port()
    command = "from bot.cli import main; main()"
    process = subprocess.Popen(
        [sys.executable, "-c", command, "web", "--db", database, "--listen", f"127.0.0.1:{port}"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # This checkout's code, whatever the virtual environment has installed.
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])},
    )
    try:
        status = 0
        for _ in range(100):  # up to 10 s for it to start
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}{found.group(0)}") as page:
                    status = page.status
                    body = page.read().decode()
                break
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.1)
        assert status == 200, process.stderr.read() if process.poll() is not None else ""
        assert "HG" in body
    finally:
        process.send_signal(signal.SIGINT)
        out, _ = process.communicate(timeout=10)
    assert process.returncode == 0
    assert f"127.0.0.1:{port}" in out
