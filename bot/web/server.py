"""The public pages' HTTP server (INTERFACE §6), on aiohttp.

`/c/<token>` is a club's page, `/c/<token>/t/<id>` a tournament's; the same URL asked
with `Accept: application/json` answers JSON. A club whose pages are off, an unknown
token and every other path answer the same 404: nothing lists or reveals clubs.

Bounded: each club has a version, a fingerprint of what its pages show (its settings,
its tournaments' versions, its players' names, its imported rankings), read with a few
small queries at most once a second per club. A page is rendered once per version and
kind (HTML, JSON) and kept; a browser that sends back its ETag gets 304. A hundred
phones polling an open page cost one render per change.

Live: the page's script asks again every two seconds with its ETag and swaps in the
new content when the answer is not 304; without JavaScript the page shows the state it
was loaded with.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib import resources
from typing import Any, Literal

import segno
from aiohttp import web
from jinja2 import Environment, FunctionLoader, select_autoescape
from markupsafe import Markup
from sqlalchemy import func, select

from bot.web import pages
from commands.catalog import template
from commands.rendering import Renderer
from commands.replies import Param, msg
from commands.web import join
from storage import tables
from storage.engine import Database
from storage.unit_of_work import SqlUnitOfWorkFactory
from tournament import calendar
from tournament.club import Club

log = logging.getLogger("clubtd.web")

POLL_SECONDS = 2  # how often an open page asks for news (a result shows within 5 s)
VERSION_SECONDS = 1.0  # how long a club's version is trusted before it is read again
CACHE_LIMIT = 512  # rendered pages kept (the oldest go first)
Kind = Literal["html", "json"]
SCRIPT_PATH = "/s/live.js"
# Pages run only their own script and styles, load nothing from elsewhere, and may not
# be framed; the secret URL is never sent on as a referrer.
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; "
        "connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; "
        "frame-ancestors 'none'"
    ),
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Robots-Tag": "noindex, nofollow",
}


def _template_source(name: str) -> str:
    return resources.files("bot.web").joinpath("templates", name).read_text(encoding="utf-8")


def environment() -> Environment:
    """Return the Jinja2 environment: autoescape on for every template."""
    return Environment(
        loader=FunctionLoader(_template_source),
        autoescape=select_autoescape(default=True, default_for_string=True),
        trim_blocks=True,
        lstrip_blocks=True,
    )


def relative(page: str, target: str) -> str:
    """Return the link from one page path to another, relative: it works behind a proxy
    that serves the pages under a prefix of CLUBTD_WEB_URL, and on any local port."""
    depth = page.strip("/").count("/")
    return "../" * depth + target.lstrip("/")


def qr_svg(url: str) -> Markup:
    """Return a QR code of `url` as inline SVG (drawn by segno from our own URL)."""
    code = segno.make(url, error="m")
    svg: str = code.svg_inline(scale=4, border=2, dark="#111", light="#fff")
    return Markup(svg)  # segno drew it from our own URL: no user text in it


@dataclass
class _Rendered:
    version: str
    etag: str
    body: bytes
    content_type: str


@dataclass
class _Kept:
    """A page as rendered for a version, or None: no page at that path then."""

    version: str
    found: _Rendered | None


@dataclass
class _Version:
    value: str
    club: Club
    read_at: float


def _utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass
class PageStore:
    """Pages by club version: what makes a page cost one render per change."""

    engine: Database
    uow_factory: SqlUnitOfWorkFactory
    base_url: str
    clock: Callable[[], float] = time.monotonic
    # The wall clock: a tournament whose day passed undrawn leaves "next" at the club's
    # midnight, so the club's date is part of its pages' version.
    now: Callable[[], datetime] = field(default_factory=lambda: _utc_now)
    renders: int = 0  # how many pages were rendered (the bench and tests read it)
    _versions: dict[str, _Version] = field(default_factory=dict)
    _pages: dict[tuple[str, str, Kind], _Kept] = field(default_factory=dict)
    _locks: dict[str, asyncio.Lock] = field(default_factory=dict)
    _env: Environment = field(default_factory=environment)

    async def version(self, token: str) -> _Version | None:
        """Return the club's current version, None when no club's pages answer here."""
        known = self._versions.get(token)
        now = self.clock()
        if known is not None and now - known.read_at < VERSION_SECONDS:
            return known
        found = await self._read_version(token)
        if found is None:
            self._versions.pop(token, None)
            self._forget(token)
            return None
        self._versions[token] = found
        return found

    async def _read_version(self, token: str) -> _Version | None:
        c = tables.clubs.c
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(tables.clubs).where(c.web_token == token))).first()
            if row is None:
                return None
            t, p, r = tables.tournaments.c, tables.players.c, tables.ranking_imports.c
            tournaments = (
                await conn.execute(
                    select(t.id, t.version).where(t.club_id == row.id).order_by(t.id)
                )
            ).all()
            players = (
                await conn.execute(select(p.id, p.name).where(p.club_id == row.id).order_by(p.id))
            ).all()
            imported = (
                await conn.execute(select(func.count(), func.max(r.id)).where(r.club_id == row.id))
            ).one()
        club = Club(
            id=row.id,
            name=row.name,
            timezone=row.timezone,
            language=row.language,
            pictures=row.pictures,
            approval=row.approval,
        )
        facts = (
            (
                row.name,
                row.timezone,
                row.language,
                calendar.local(self.now(), row.timezone).date(),
            ),
            [tuple(x) for x in tournaments],
            [tuple(x) for x in players],
            tuple(imported),
        )
        digest = hashlib.sha256(repr(facts).encode()).hexdigest()[:20]
        return _Version(digest, club, self.clock())

    def _forget(self, token: str) -> None:
        for key in [k for k in self._pages if k[0] == token]:
            del self._pages[key]
        lock = self._locks.get(token)
        if lock is not None and not lock.locked():
            del self._locks[token]

    async def page(self, token: str, path: str, kind: Kind) -> _Rendered | None:
        """Return the page at `path` for this version, rendering it only when new.

        A path that is no page (a tournament of another club, a number made up) is
        remembered as missing for the version too: made-up links cost no more work
        than real ones. One lock per club: one render at a time, each only once.
        """
        version = await self.version(token)
        if version is None:
            return None
        key = (token, path, kind)
        cached = self._pages.get(key)
        if cached is not None and cached.version == version.value:
            return cached.found
        lock = self._locks.setdefault(token, asyncio.Lock())
        async with lock:
            cached = self._pages.get(key)
            if cached is not None and cached.version == version.value:
                return cached.found
            rendered = await self._render(token, path, kind, version)
            if len(self._pages) >= CACHE_LIMIT:
                self._pages.pop(next(iter(self._pages)))
            self._pages[key] = _Kept(version.value, rendered)
            return rendered

    async def _render(
        self, token: str, path: str, kind: Kind, version: _Version
    ) -> _Rendered | None:
        club = version.club
        self.renders += 1
        async with self.uow_factory() as uow:
            if path == "":
                found: pages.ClubPage | pages.TournamentPage | None = await pages.club_page(
                    uow, club, token, self.base_url, self.now()
                )
            else:
                found = await pages.tournament_page(uow, club, token, int(path), self.now())
        if found is None:
            return None
        if kind == "json":
            body = json.dumps(found.data, ensure_ascii=False, indent=1).encode()
            content_type = "application/json"
        elif isinstance(found, pages.ClubPage):
            # Rendering is CPU work: off the event loop, so the chat adapters sharing it
            # (`clubtd run`) keep answering while a big page is drawn.
            body = (await asyncio.to_thread(self._club_html, found, version)).encode()
            content_type = "text/html"
        else:
            body = (await asyncio.to_thread(self._tournament_html, found, version)).encode()
            content_type = "text/html"
        etag = f'"{version.value}-{kind}"'
        return _Rendered(version.value, etag, body, content_type)

    def _context(self, club: Club, path: str, version: str) -> dict[str, Any]:
        renderer = Renderer(club.language, club.timezone, "plain")

        def t(value: Param | None) -> str:
            return "" if value is None else renderer.param(value)

        def m(key: str, **params: Param) -> str:
            return renderer.message(msg(key, **params))

        url = join(self.base_url, path)
        return {
            "t": t,
            "m": m,
            "when": lambda at, style="datetime": renderer.when(at, style),
            "href": lambda target: relative(path, target),
            "language": club.language,
            "club": club,
            "url": url,
            "qr": qr_svg(url),
            "version": version,
            "poll_ms": POLL_SECONDS * 1000,
            "script": relative(path, SCRIPT_PATH),
        }

    def _club_html(self, page: pages.ClubPage, version: _Version) -> str:
        context = self._context(page.club, page.path, version.value)
        groups = {kind: [x for x in page.tournaments if x.kind == kind] for kind in pages.KINDS}
        groups["past"].reverse()  # the latest first
        return self._env.get_template("club.html").render(page=page, groups=groups, **context)

    def _tournament_html(self, page: pages.TournamentPage, version: _Version) -> str:
        return self.tournament_html(page, version.value)

    def tournament_html(self, page: pages.TournamentPage, version: str) -> str:
        """Return a tournament page's HTML (the bench times this with the view)."""
        context = self._context(page.club, page.path, version)
        return self._env.get_template("tournament.html").render(page=page, **context)

    def not_found(self) -> bytes:
        """Return the one 404 page: the same for an old link, a wrong one, any path."""
        text = template("en", "page.not_found")
        return self._env.get_template("not_found.html").render(text=text).encode()


def _wants_json(request: web.Request) -> bool:
    accept = request.headers.get("Accept", "")
    return "application/json" in accept and "text/html" not in accept


def make_app(store: PageStore) -> web.Application:
    """Return the aiohttp application serving the public pages."""

    async def handle(request: web.Request) -> web.StreamResponse:
        token = request.match_info["token"]
        path = request.match_info.get("tournament", "")
        kind: Kind = "json" if _wants_json(request) else "html"
        try:
            page = await store.page(token, path, kind)
        except Exception:  # a page that cannot be built must not take the server down
            log.exception("page %s/%s could not be rendered", "c/<token>", path)
            raise web.HTTPInternalServerError(text="The page could not be shown.") from None
        if page is None:
            return _not_found(store)
        headers = {
            "ETag": page.etag,
            "Cache-Control": "no-cache",
            "Vary": "Accept",
            **SECURITY_HEADERS,
        }
        if page.etag in _etags(request.headers.get("If-None-Match", "")):
            return web.Response(status=304, headers=headers)
        return web.Response(
            body=page.body, content_type=page.content_type, charset="utf-8", headers=headers
        )

    async def anything_else(request: web.Request) -> web.StreamResponse:
        return _not_found(store)

    script = resources.files("bot.web").joinpath("static", "live.js").read_bytes()

    async def live_script(request: web.Request) -> web.StreamResponse:
        return web.Response(
            body=script,
            content_type="text/javascript",
            charset="utf-8",
            headers={"Cache-Control": "public, max-age=3600", **SECURITY_HEADERS},
        )

    app = web.Application()
    app.router.add_get(SCRIPT_PATH, live_script)
    app.router.add_get(r"/c/{token:[0-9a-f]{32}}", handle)
    app.router.add_get(r"/c/{token:[0-9a-f]{32}}/t/{tournament:[0-9]{1,12}}", handle)
    app.router.add_route("*", "/{tail:.*}", anything_else)
    return app


def _etags(header: str) -> set[str]:
    return {part.strip().removeprefix("W/") for part in header.split(",") if part.strip()}


def _not_found(store: PageStore) -> web.Response:
    return web.Response(
        status=404,
        body=store.not_found(),
        content_type="text/html",
        charset="utf-8",
        headers={"Cache-Control": "no-store", **SECURITY_HEADERS},
    )


@dataclass
class WebServer:
    """The pages on a host and port; `start` binds (port 0: a free one), `stop` ends."""

    store: PageStore
    host: str
    port: int
    _runner: web.AppRunner | None = None

    async def start(self) -> None:
        self._runner = web.AppRunner(make_app(self.store), access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        if self.port == 0:
            server = site._server  # the bound port, when asked for any free one
            sockets = getattr(server, "sockets", None) or []
            self.port = sockets[0].getsockname()[1]

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
