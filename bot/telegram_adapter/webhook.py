"""Webhook mode: Telegram POSTs each update to us; aiohttp serves the endpoint.

aiohttp (maintained, and already what discord.py runs on) parses HTTP; this module only
checks the request and hands the update to the Application. A request without the
secret token Telegram was given (`X-Telegram-Bot-Api-Secret-Token`) is refused with
403, compared byte-wise in constant time, so nobody else can inject updates and no
header, however encoded, makes the check raise.
"""

from __future__ import annotations

import hmac
import json
import logging
from typing import Any

from aiohttp import web
from telegram import Update
from telegram.ext import Application

log = logging.getLogger("clubtd.telegram")

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
MAX_BODY = 1 << 20


def shared_secret(token: str) -> str:
    """Return the webhook secret every process with this bot token derives alike.

    Several processes behind one load balancer each register the same webhook at start-up;
    a random secret per process would let the last one's replace the others', and every
    update routed to those would be refused. Only holders of the token can derive it.
    """
    return hmac.new(token.encode(), b"clubtd telegram webhook", "sha256").hexdigest()


def secret_matches(given: str | bytes | None, secret: str) -> bool:
    """Compare a secret header with ours as bytes, in constant time; never raise."""
    if given is None:
        return False
    if isinstance(given, str):
        # aiohttp decodes header bytes as UTF-8 with surrogateescape: undo it exactly.
        given = given.encode("utf-8", "surrogateescape")
    return hmac.compare_digest(given, secret.encode("utf-8"))


class WebhookServer:
    def __init__(
        self,
        application: Application[Any, Any, Any, Any, Any, Any],
        *,
        listen: str,
        port: int,
        path: str,
        secret: str,
    ) -> None:
        self.application = application
        self.listen = listen
        self.port = port
        self.path = path or "/"
        self.secret = secret
        self._runner: web.AppRunner | None = None
        self._site: web.TCPSite | None = None

    @property
    def bound_port(self) -> int:
        """Return the port listened on (useful when asked for port 0)."""
        assert self._runner is not None and self._runner.addresses
        return int(self._runner.addresses[0][1])

    def app(self) -> web.Application:
        app = web.Application(client_max_size=MAX_BODY)
        app.router.add_route("*", self.path, self._handle)
        return app

    async def start(self) -> None:
        self._runner = web.AppRunner(self.app(), access_log=None)
        await self._runner.setup()
        self._site = web.TCPSite(self._runner, self.listen, self.port)
        await self._site.start()

    async def stop(self) -> None:
        runner, self._runner, self._site = self._runner, None, None
        if runner is not None:
            await runner.cleanup()

    async def _handle(self, request: web.Request) -> web.Response:
        if request.method != "POST":
            return web.Response(status=405)
        if not secret_matches(request.headers.get(SECRET_HEADER), self.secret):
            log.warning("webhook request without the right secret token refused")
            return web.Response(status=403)
        # Authenticated from here on: Telegram sent it. Whatever it is, it is answered 200
        # (and dropped, logged, when it cannot be read): any other status makes Telegram
        # deliver the same update again, for ever, holding up the updates behind it.
        try:
            body = await request.read()
            data = json.loads(body)
            update = Update.de_json(data, self.application.bot)
        except web.HTTPRequestEntityTooLarge:
            log.warning("webhook: an update over %d bytes dropped", MAX_BODY)
            return web.Response(status=200)
        except (ValueError, TypeError, KeyError, AttributeError) as error:
            log.warning("webhook: not an update, dropped: %s", error)
            return web.Response(status=200)
        if update is None:
            log.warning("webhook: an empty update dropped")
            return web.Response(status=200)
        await self.application.update_queue.put(update)
        return web.Response(status=200)
