"""Webhook mode: a small HTTP endpoint that feeds Telegram's updates to the Application.

python-telegram-bot's own webhook server needs tornado (its `webhooks` extra); this
one needs nothing: Telegram only ever POSTs one JSON update per request. Requests
without the secret token Telegram was given (`X-Telegram-Bot-Api-Secret-Token`) are
refused, so nobody else can inject updates.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
from typing import Any

from telegram import Update
from telegram.ext import Application

log = logging.getLogger("clubtd.telegram")

SECRET_HEADER = "x-telegram-bot-api-secret-token"
MAX_BODY = 1 << 20
_REASONS = {200: "OK", 400: "Bad Request", 403: "Forbidden", 404: "Not Found", 405: "Not Allowed"}


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
        self._server: asyncio.Server | None = None

    @property
    def bound_port(self) -> int:
        """Return the port listened on (useful when asked for port 0)."""
        assert self._server is not None and self._server.sockets
        return int(self._server.sockets[0].getsockname()[1])

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._serve, self.listen, self.port)

    async def stop(self) -> None:
        server, self._server = self._server, None
        if server is not None:
            server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(server.wait_closed(), timeout=5)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            status = await asyncio.wait_for(self._request(reader), timeout=30)
        except (TimeoutError, ValueError, asyncio.IncompleteReadError, ConnectionError):
            status = 400
        reason = _REASONS.get(status, "Error")
        with contextlib.suppress(ConnectionError):
            head = f"HTTP/1.1 {status} {reason}\r\nContent-Length: 0\r\nConnection: close\r\n"
            writer.write((head + "\r\n").encode())
            await writer.drain()
        writer.close()
        with contextlib.suppress(Exception):
            await writer.wait_closed()

    async def _request(self, reader: asyncio.StreamReader) -> int:
        request_line = (await reader.readline()).decode("latin-1").split()
        headers: dict[str, str] = {}
        while True:
            line = (await reader.readline()).decode("latin-1")
            if line in ("\r\n", "\n", ""):
                break
            key, _, value = line.partition(":")
            headers[key.strip().lower()] = value.strip()
        if len(request_line) < 2:
            return 400
        method, target = request_line[0], request_line[1]
        if target.split("?", 1)[0] != self.path:
            return 404
        if method != "POST":
            return 405
        if not hmac.compare_digest(headers.get(SECRET_HEADER, ""), self.secret):
            log.warning("webhook request without the right secret token refused")
            return 403
        size = int(headers.get("content-length", "0"))
        if not 0 < size <= MAX_BODY:
            return 400
        body = await reader.readexactly(size)
        try:
            data = json.loads(body)
            update = Update.de_json(data, self.application.bot)
        except (ValueError, TypeError, KeyError) as error:
            log.warning("webhook: not an update: %s", error)
            return 400
        await self.application.update_queue.put(update)
        return 200
