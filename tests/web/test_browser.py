"""The public pages in a real headless browser (INTERFACE §6, issue 19).

A played-out night (tests/bot/nights/navodari.t, with the pages turned on) shows every
group, the bracket and the placements; a result reported while a page is open appears
without a reload; at 360 px nothing is wider than the screen; `web:off` gives 404; the
JSON answers. Screenshots of the club and tournament pages at phone and desktop width
are written to web-screenshots/ (the path is printed) for anyone to look at.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from bot.web.server import PageStore, WebServer
from storage.engine import make_engine
from storage.unit_of_work import unit_of_work_factory
from tests.bot.conftest import Result, invoke
from tests.commands.chat import Chat
from tests.web.browser import SCREENSHOTS, chromium_or_skip

NAVODARI = Path(__file__).parents[1] / "bot" / "nights" / "navodari.t"
LINK = re.compile(r"http://127\.0\.0\.1:8080(/c/[0-9a-f]{32})")
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 900}
OVERFLOWS = "document.documentElement.scrollWidth > window.innerWidth"


def _cli(*args: str) -> Result:
    return invoke(*args)


@pytest.fixture(scope="module")
def navodari_night(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """Play the Navodari cup with the club's pages on; return its database and the path
    of the club's page."""
    folder = tmp_path_factory.mktemp("navodari")
    lines = NAVODARI.read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("@clock")) + 1
    script = folder / "night.t"
    script.write_text("\n".join([*lines[:at], "ana: /club web:on", *lines[at:]]) + "\n")
    database = folder / "night.db"
    result = _cli("console", "--script", str(script), "--db", f"sqlite:///{database}")
    assert result.exit_code == 0, result.stderr
    found = LINK.search(result.stdout)
    assert found is not None, result.stdout[:2000]
    return database, found.group(1)


@pytest.fixture
def chromium() -> str:
    return chromium_or_skip()


class Site:
    """The pages of one database on a free local port."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.store: PageStore | None = None
        self.server: WebServer | None = None

    async def start(self) -> None:
        self.engine = make_engine(self.url)
        self.store = PageStore(
            engine=self.engine,
            uow_factory=unit_of_work_factory(self.engine),
            base_url="http://127.0.0.1:8080",
        )
        self.server = WebServer(self.store, "127.0.0.1", 0)
        await self.server.start()

    def at(self, path: str) -> str:
        assert self.server is not None
        return f"http://127.0.0.1:{self.server.port}{path}"

    async def stop(self) -> None:
        if self.server is not None:
            await self.server.stop()
        await self.engine.dispose()


@pytest_asyncio.fixture
async def browser(chromium: str) -> AsyncIterator[Any]:
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(
            executable_path=chromium, args=["--no-sandbox"]
        )
        try:
            yield launched
        finally:
            await launched.close()


@pytest_asyncio.fixture
async def night_site(navodari_night: tuple[Path, str], tmp_path: Path) -> AsyncIterator[Site]:
    database, _ = navodari_night
    copy = tmp_path / "night.db"
    shutil.copy(database, copy)
    site = Site(f"sqlite:///{copy}")
    await site.start()
    try:
        yield site
    finally:
        await site.stop()


async def _tournament_path(site: Site, club: str) -> str:
    page_json = await _json(site, club)
    (tournament,) = page_json["tournaments"]
    return str(tournament["url"]).removeprefix("http://127.0.0.1:8080")


async def _json(site: Site, path: str) -> dict[str, Any]:
    import aiohttp

    async with (
        aiohttp.ClientSession() as session,
        session.get(site.at(path), headers={"Accept": "application/json"}) as answer,
    ):
        assert answer.status == 200
        assert answer.content_type == "application/json"
        data: dict[str, Any] = await answer.json()
        return data


async def test_a_played_out_night_shows_every_group_the_bracket_and_the_places(
    browser: Any, night_site: Site, navodari_night: tuple[Path, str]
) -> None:
    _, club = navodari_night
    path = await _tournament_path(night_site, club)
    data = await _json(night_site, path)
    assert data["status"] == "finished"
    SCREENSHOTS.mkdir(exist_ok=True)
    print(f"\nscreenshots of the public pages: {SCREENSHOTS}")
    for width, size in (("phone", PHONE), ("desktop", DESKTOP)):
        page = await browser.new_page(viewport=size)
        await page.goto(night_site.at(path))
        body = await page.inner_text("body")
        for group in data["groups"]:
            assert f"Group {group['name']}" in body
            assert all(name in body for name in group["players"])
        assert await page.locator("#bracket .bm").count() == sum(
            1 for m in data["matches"] if m["stage"] in ("knockout", "third_place", "consolation")
        )
        placed = page.locator("#placements tbody tr")
        assert await placed.count() == len(data["placements"])
        first = await placed.first.inner_text()
        assert data["placements"][0]["name"] in first
        assert not await page.evaluate(OVERFLOWS), width
        await page.screenshot(path=str(SCREENSHOTS / f"tournament-{width}.png"), full_page=True)
        if width == "desktop":  # as printed for the venue's wall: no buttons, the QR code
            await page.emulate_media(media="print")
            assert await page.locator(".printqr svg").is_visible()
            assert not await page.locator("nav.jump").is_visible()
            await page.screenshot(path=str(SCREENSHOTS / "tournament-print.png"), full_page=True)
            await page.emulate_media(media="screen")
        await page.goto(night_site.at(club))
        assert "Cupa" in await page.inner_text("body")
        assert not await page.evaluate(OVERFLOWS), width
        await page.screenshot(path=str(SCREENSHOTS / f"club-{width}.png"), full_page=True)
        await page.click("text=Cupa")  # the club page links its tournaments
        assert page.url == night_site.at(path)
        await page.close()


async def test_the_page_works_without_javascript(
    browser: Any, night_site: Site, navodari_night: tuple[Path, str]
) -> None:
    _, club = navodari_night
    path = await _tournament_path(night_site, club)
    context = await browser.new_context(java_script_enabled=False, viewport=PHONE)
    page = await context.new_page()
    await page.goto(night_site.at(path))
    body = await page.inner_text("body")
    assert "Group 1" in body and "Knockout" in body
    await context.close()


async def test_web_off_gives_404_in_the_browser(
    browser: Any, night_site: Site, navodari_night: tuple[Path, str]
) -> None:
    _, club = navodari_night
    page = await browser.new_page()
    assert (await page.goto(night_site.at(club))).status == 200
    chat = Chat(night_site.engine)
    chat.at("2026-03-07 12:00")
    assert "404" in await chat.say("ana", "/club web:off")
    assert night_site.store is not None
    night_site.store.clock = lambda: 1e12  # the club's version is read again at once
    answer = await page.goto(night_site.at(club))
    assert answer.status == 404
    assert "Cupa" not in await page.inner_text("body")


@pytest_asyncio.fixture
async def live_site(tmp_path: Path) -> AsyncIterator[tuple[Site, Chat, str]]:
    """A club night in its group stage, pages on, served; yields the tournament's path."""
    from storage.migrate import upgrade

    url = f"sqlite:///{tmp_path / 'live.db'}"
    await upgrade(url)
    site = Site(url)
    await site.start()
    chat = Chat(site.engine)
    await chat.say("ana", '/club name:"Club Ñandú" language:es timezone:Europe/Madrid')
    found = LINK.search(await chat.say("ana", "/club web:on"))
    assert found is not None
    await chat.night("bob", "carol", "dave", "erin")
    state = await chat.tournament()
    try:
        yield site, chat, f"{found.group(1)}/t/{state.id}"
    finally:
        await site.stop()


async def test_a_result_appears_on_an_open_page_without_a_reload(
    browser: Any, live_site: tuple[Site, Chat, str]
) -> None:
    site, chat, path = live_site
    page = await browser.new_page(viewport=PHONE)
    await page.goto(site.at(path))
    await page.evaluate("window.notReloaded = true")
    state = await chat.tournament()
    match = min((m for m in state.matches.values() if m.is_ready), key=lambda m: m.number)
    row = page.locator(f"#results #match-{match.number}")
    assert await row.count() == 0
    reply = await chat.say("ana", f"/result {match.number} {match.length}-1")
    assert f"{match.length}-1" in reply
    await row.wait_for(timeout=5000)  # within 5 s of becoming final
    assert f"{match.length}-1" in await row.inner_text()
    assert await page.evaluate("window.notReloaded === true")
    assert not await page.evaluate(OVERFLOWS)
    SCREENSHOTS.mkdir(exist_ok=True)
    await page.screenshot(path=str(SCREENSHOTS / "tournament-live-phone.png"), full_page=True)
