"""The public pages over HTTP (INTERFACE §6): HTML and JSON, 404s, ETags, one render per
change. The browser tests (test_browser.py) check what a person sees."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import pytest
import pytest_asyncio
from aiohttp.test_utils import TestClient, TestServer
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.web.server import PageStore, make_app
from commands.export import export_club
from tests.commands.chat import Chat

BASE = "http://pages.test"
PATH = re.compile(r"http://127\.0\.0\.1:8080(/c/[0-9a-f]{32})")


class Clock:
    """The page store's monotonic clock, moved by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


async def played(chat: Chat, *, language: str = "en", extra: str = "") -> str:
    """Play a small night to its end; return the club page's path."""
    if language != "en":
        await chat.say("ana", f"/club language:{language}")
    reply = await chat.say("ana", "/club web:on")
    found = PATH.search(reply)
    assert found is not None, reply
    await chat.night("bob", "carol", "dave", "erin", extra=extra)
    for _ in range(40):
        state = await chat.tournament()
        if state.status.value == "finished":
            break
        match = min(
            (m for m in state.matches.values() if m.is_ready and not m.is_final),
            key=lambda m: m.number,
        )
        await chat.say("ana", f"/result {match.number} {match.length}-1")
    return found.group(1)


@pytest_asyncio.fixture
async def chat(engine: AsyncEngine) -> Chat:
    return Chat(engine)


@pytest_asyncio.fixture
async def store(chat: Chat) -> PageStore:
    return PageStore(engine=chat.engine, uow_factory=chat.uow_factory, base_url=BASE)


@pytest_asyncio.fixture
async def client(store: PageStore) -> AsyncIterator[TestClient[Any, Any]]:
    async with TestClient(TestServer(make_app(store))) as client:
        yield client


JSON = {"Accept": "application/json"}


async def test_the_tournament_json_is_the_exports_tournament_object(
    chat: Chat, client: TestClient[Any, Any]
) -> None:
    club = await played(chat)
    state = await chat.tournament()
    response = await client.get(f"{club}/t/{state.id}", headers=JSON)
    assert response.status == 200
    assert response.content_type == "application/json"
    async with chat.uow_factory() as uow:
        found = await uow.clubs.for_chat("console", "club")
        assert found is not None
        exported = await export_club(uow, found)
    assert await response.json() == exported["tournaments"][0]


async def test_the_club_json_lists_tournaments_with_their_urls_and_the_ranking(
    chat: Chat, client: TestClient[Any, Any]
) -> None:
    club = await played(chat)
    state = await chat.tournament()
    data = await (await client.get(club, headers=JSON)).json()
    assert set(data) >= {"club", "ranking", "tournaments"}
    assert data["club"]["name"] == "Club"
    (listed,) = data["tournaments"]
    assert listed["name"] == "January Cup"
    assert listed["status"] == "finished"
    assert listed["url"] == f"{BASE}{club}/t/{state.id}"
    assert {row["name"] for row in data["ranking"]} == {"bob", "carol", "dave", "erin"}


async def test_the_tournament_page_shows_groups_bracket_results_and_places(
    chat: Chat, client: TestClient[Any, Any]
) -> None:
    club = await played(chat)
    state = await chat.tournament()
    response = await client.get(f"{club}/t/{state.id}")
    assert response.status == 200
    assert response.content_type == "text/html"
    html = await response.text()
    for group in state.groups:
        assert f"Group {group.name}" in html
    assert "Knockout" in html
    assert "final places and ranking points" in html
    assert "<svg" in html  # the QR code of the page


async def test_an_unknown_token_a_wrong_path_and_a_foreign_tournament_all_answer_404(
    chat: Chat, client: TestClient[Any, Any]
) -> None:
    club = await played(chat)
    for path in ("/c/" + "0" * 32, "/", "/c/", f"{club}/t/999", f"{club}/x", "/c/abc"):
        response = await client.get(path)
        assert response.status == 404, path
        assert "January Cup" not in await response.text()


async def test_web_off_makes_every_old_link_answer_404(
    chat: Chat, client: TestClient[Any, Any], store: PageStore
) -> None:
    club = await played(chat)
    state = await chat.tournament()
    assert (await client.get(club)).status == 200
    await chat.say("ana", "/club web:off")
    store.clock = lambda: 1e9  # the version is read again
    assert (await client.get(club)).status == 404
    assert (await client.get(f"{club}/t/{state.id}", headers=JSON)).status == 404


async def test_pages_carry_display_names_never_account_ids_and_escape_them(
    chat: Chat, client: TestClient[Any, Any]
) -> None:
    found = PATH.search(await chat.say("ana", "/club web:on"))
    assert found is not None
    await chat.say(
        "ana", '/tournament new name:"January Cup" start:"2026-01-31 20:00" approval:no'
    )
    entered = await chat.say("zz4711", '/register name:"<b>Ana</b> & Co"')
    assert "you are entered" in entered
    state = await chat.tournament()
    html = await (await client.get(f"{found.group(1)}/t/{state.id}")).text()
    data = await (await client.get(f"{found.group(1)}/t/{state.id}", headers=JSON)).text()
    assert "&lt;b&gt;Ana&lt;/b&gt; &amp; Co" in html
    assert "<b>Ana</b>" not in html
    for text in (html, data):
        assert "zz4711" not in text


async def test_a_hundred_phones_cost_one_render_per_change(
    chat: Chat, store: PageStore, client: TestClient[Any, Any]
) -> None:
    club = await played(chat)
    state = await chat.tournament()
    path = f"{club}/t/{state.id}"
    clock = Clock()
    store.clock = clock
    before = store.renders
    answers = await asyncio.gather(*(client.get(path) for _ in range(100)))
    assert {a.status for a in answers} == {200}
    assert store.renders == before + 1
    etag = answers[0].headers["ETag"]
    same = await client.get(path, headers={"If-None-Match": etag})
    assert same.status == 304
    # A change: the next request after the version's second renders once more.
    await chat.say("ana", f"/result 1 {state.matches[1].length}-0 reason:typo")
    clock.now += 5
    answers = await asyncio.gather(
        *(client.get(path, headers={"If-None-Match": etag}) for _ in range(100))
    )
    assert {a.status for a in answers} == {200}
    assert store.renders == before + 2
    assert answers[0].headers["ETag"] != etag


async def test_numbers_are_written_the_clubs_way(chat: Chat, client: TestClient[Any, Any]) -> None:
    club = await played(chat, language="es")
    state = await chat.tournament()
    html = await (await client.get(f"{club}/t/{state.id}")).text()
    points = [p.points for p in state.placements if p.points not in ("0", "0.00")]
    assert points, state.placements
    assert f"{float(points[0]):.2f}".replace(".", ",") in html
    assert "Grupos" in html and 'lang="es"' in html
    data = json.loads(await (await client.get(f"{club}/t/{state.id}", headers=JSON)).text())
    assert isinstance(data["ranking_points"][0]["points"], float)  # JSON stays JSON


async def test_pages_run_only_their_own_script_and_cannot_be_framed(
    chat: Chat, client: TestClient[Any, Any]
) -> None:
    club = await played(chat)
    answer = await client.get(club)
    policy = answer.headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert answer.headers["Referrer-Policy"] == "no-referrer"  # the secret stays secret
    html = await answer.text()
    script = re.search(r'<script src="([^"]+)"', html)
    assert script is not None and script.group(1) == "../s/live.js"
    served = await client.get("/s/live.js")
    assert served.status == 200
    assert "If-None-Match" in await served.text()
    assert (
        await client.get(club, headers={"If-None-Match": answer.headers["ETag"]})
    ).status == 304


async def test_results_show_lateness_points_HGV_2_3_1(
    chat: Chat, client: TestClient[Any, Any]
) -> None:
    found = PATH.search(await chat.say("ana", "/club web:on"))
    assert found is not None
    await chat.night("bob", "carol", "dave", "erin", check_in=("bob", "carol", "dave"))
    await chat.wait(55)  # from 19:30 to 20:25: erin's opponent gets a point every 10 minutes
    state = await chat.tournament()
    html = await (await client.get(f"{found.group(1)}/t/{state.id}")).text()
    assert "erin late at 20:10: 1 point to the opponent" in html
    assert "erin late at 20:20: 1 point to the opponent" in html


async def test_a_reported_score_awaiting_the_opponent_is_shown_CLUB_REPORT(
    chat: Chat, client: TestClient[Any, Any]
) -> None:
    """Kraków's page read "0-0, awaiting opponent" of a match Adam had reported 4-0."""
    found = PATH.search(await chat.say("ana", "/club web:on"))
    assert found is not None
    await chat.night("bob", "carol", "dave")
    chat.at("2026-01-31T20:05")
    match, white, _ = await chat.first_match("bob", "carol", "dave")
    await chat.say(white, f"/report {match.length}-1")
    state = await chat.tournament()
    html = await (await client.get(f"{found.group(1)}/t/{state.id}")).text()
    row = html[html.index(f'id="match-{match.number}"') :].split("</li>")[0]
    assert "awaiting opponent" in row, row
    assert f'<span class="score">{match.length}-1</span>' in row, row


async def test_made_up_links_cost_no_more_than_real_ones(
    chat: Chat, store: PageStore, client: TestClient[Any, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.web import server

    monkeypatch.setattr(server, "CACHE_LIMIT", 8)
    club = await played(chat)
    store.clock = Clock()
    before = store.renders
    for _ in range(3):
        assert (await client.get(f"{club}/t/999")).status == 404
    assert store.renders == before + 1  # remembered as missing until the club changes
    for number in range(1000, 1040):
        assert (await client.get(f"{club}/t/{number}")).status == 404
    assert len(store._pages) <= 8
    assert len(store._locks) == 1  # one per club whose pages are on, not per path


async def test_the_page_shows_shared_places_as_the_chat_does_PLACE_SHARE(
    chat: Chat, client: TestClient[Any, Any]
) -> None:
    """Players out at the same stage share a place range on the page too ("5–8"), the
    chat's placements table row for row, never a bare "5" for several people."""
    from commands import views

    reply = await chat.say("ana", "/club web:on")
    found = PATH.search(reply)
    assert found is not None, reply
    players = ("bob", "carol", "dave", "erin", "finn", "gina", "hugo", "iris")
    await chat.night(*players)
    for _ in range(80):
        state = await chat.tournament()
        if state.status.value == "finished":
            break
        match = min(
            (m for m in state.matches.values() if m.is_ready and not m.is_final),
            key=lambda m: m.number,
        )
        await chat.say("ana", f"/result {match.number} {match.length}-1")
    state = await chat.tournament()
    assert state.status.value == "finished"
    names = {await chat.player_id(n): n for n in players}
    labels = [str(row[0]) for row in views.placements_table(state, names).rows]
    shared = [label for label in labels if "–" in label]
    assert shared, labels  # the night has a shared range to show
    html = await (await client.get(f"{found.group(1)}/t/{state.id}")).text()
    for label in set(labels):
        assert f">{label}<" in html, label


async def test_a_friendlys_page_shows_places_without_points_HGV_8(
    chat: Chat, client: TestClient[Any, Any]
) -> None:
    club = await played(chat, extra="official:no")
    state = await chat.tournament()
    html = await (await client.get(f"{club}/t/{state.id}")).text()
    placements = html.split('id="placements"')[1].split("</section>")[0]
    assert "a friendly: no ranking points" in placements, placements
    assert "Points" not in placements, placements


async def test_a_night_whose_day_passed_undrawn_leaves_next_for_the_past(
    chat: Chat, client: TestClient[Any, Any], store: PageStore
) -> None:
    """May Cup was forgotten: in June the club page still listed it as the next night,
    "open for entries". From the club's next day it is among the past, said to be one."""
    reply = await chat.say("ana", "/club web:on")
    found = PATH.search(reply)
    assert found is not None, reply
    await chat.say("ana", '/tournament new name:"May Cup" start:"2026-05-01 20:00" approval:no')
    store.now = lambda: datetime(2026, 5, 1, 21, 0, tzinfo=UTC)  # the night itself, late
    page = await (await client.get(found.group(1))).text()
    assert re.search(r'id="next">.*May Cup.*open for entries', page, re.S), page
    store.now = lambda: datetime(2026, 6, 2, 12, 0, tzinfo=UTC)
    store.clock = lambda: 1e9  # the version is read again
    page = await (await client.get(found.group(1))).text()
    assert 'id="next"' not in page, page
    assert re.search(r'id="past">.*May Cup.*never drawn, its day passed', page, re.S), page
    data = await (await client.get(found.group(1), headers=JSON)).json()
    assert data["tournaments"][0]["status"] == "registration"  # §6: the state as it is
    own = await (await client.get(data["tournaments"][0]["url"].removeprefix(BASE))).text()
    assert "never drawn, its day passed" in own, own
