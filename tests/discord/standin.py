"""A local Discord for tests: REST `/api/v10` and the Gateway websocket on loopback.

One file (over 500 lines, issue 18): one fake server whose REST routes, gateway and
records share their state; split, each part would reach into the others.

Enough of Discord for an unmodified discord.py 2.7 process (see PLATFORMS.md): login,
application info, `GET /gateway/bot`, HELLO / IDENTIFY / READY / GUILD_CREATE, command
sync, interaction callbacks (`?with_response=1`) with the 3-second expiry, follow-ups,
edits and deletion of the original response, channel messages and edits, file uploads
(multipart `payload_json` and `files[n]`, on posts, edits, callbacks and follow-ups,
refused over `upload_limit` with 413/40005 like Discord), direct-message channels, and
429s carrying a `Via` header and a JSON `retry_after`.

It records everything the bot sends (messages, edits, attachments, interaction
responses, which users a message really pings) and lets a test inject interactions:
slash commands, autocomplete and button presses, as a member of a guild or in a DM.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from aiohttp import WSMsgType, web

APPLICATION_ID = 900_000_000_000_000_001
BOT_USER_ID = 900_000_000_000_000_002
EPHEMERAL = 1 << 6
MANAGE_GUILD = 1 << 5
MEMBER_PERMISSIONS = (1 << 10) | (1 << 11)  # view channel, send messages
DISCORD_EPOCH = 1_420_070_400_000
EXPIRY_SECONDS = 3.0
UPLOAD_LIMIT = 10 * 1024 * 1024  # bytes a request may upload, as on a server without boosts

_counter = itertools.count(1)


def snowflake() -> int:
    """Return a fresh snowflake for now (discord.py reads an interaction's age from it)."""
    return ((int(time.time() * 1000) - DISCORD_EPOCH) << 22) | (next(_counter) % 4096)


def _now() -> str:
    return datetime.now(UTC).isoformat()


def json_response(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> Any:
    # discord.py parses JSON only when Content-Type is exactly application/json.
    return web.Response(
        body=json.dumps(data).encode(),
        status=status,
        headers={"Content-Type": "application/json", **(headers or {})},
    )


def error(status: int, code: int, message: str) -> Any:
    return json_response({"code": code, "message": message}, status)


@dataclass
class User:
    id: int
    name: str
    dms_closed: bool = False
    locale: str = "en-US"  # the language of their Discord app, sent with each interaction

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name.lower(),
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "public_flags": 0,
        }


@dataclass
class Member:
    user: User
    roles: list[int] = field(default_factory=list)
    permissions: int = MEMBER_PERMISSIONS

    def payload(self) -> dict[str, Any]:
        return {
            "user": self.user.payload(),
            "roles": [str(r) for r in self.roles],
            "joined_at": "2025-01-01T00:00:00+00:00",
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "nick": None,
            "permissions": str(self.permissions),
        }


@dataclass
class Guild:
    id: int
    name: str
    channels: dict[int, str]  # id -> name
    roles: dict[int, str] = field(default_factory=dict)  # id -> name (not @everyone)
    members: dict[int, Member] = field(default_factory=dict)

    def payload(self) -> dict[str, Any]:
        everyone = {
            "id": str(self.id),
            "name": "@everyone",
            "permissions": str(MEMBER_PERMISSIONS),
            "position": 0,
            "color": 0,
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }
        roles = [everyone] + [
            {**everyone, "id": str(rid), "name": name, "position": i + 1}
            for i, (rid, name) in enumerate(self.roles.items())
        ]
        return {
            "id": str(self.id),
            "name": self.name,
            "unavailable": False,
            "owner_id": str(next(iter(self.members), BOT_USER_ID)),
            "roles": roles,
            "channels": [
                {
                    "id": str(cid),
                    "type": 0,
                    "name": name,
                    "position": i,
                    "permission_overwrites": [],
                    "guild_id": str(self.id),
                    "nsfw": False,
                    "parent_id": None,
                }
                for i, (cid, name) in enumerate(self.channels.items())
            ],
            "members": [],
            "member_count": len(self.members) + 1,
            "features": [],
            "emojis": [],
            "stickers": [],
            "threads": [],
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "large": False,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "preferred_locale": "en-US",
            "afk_timeout": 300,
            "system_channel_flags": 0,
            "joined_at": "2025-01-01T00:00:00+00:00",
        }


@dataclass
class Attachment:
    """A file the bot uploaded with a message."""

    id: int
    filename: str
    data: bytes
    description: str | None = None  # the alt text the bot gave it

    def payload(self) -> dict[str, Any]:
        url = f"https://cdn.example/attachments/{self.id}/{self.filename}"
        return {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": url,
            "proxy_url": url,
            "content_type": "image/png" if self.filename.endswith(".png") else None,
        }


class TooLarge(Exception):
    """An upload over the stand-in's limit (Discord answers 413 / 40005)."""


@dataclass
class Message:
    """What the bot put in a channel, as it is now (edits applied)."""

    id: int
    channel_id: int
    content: str
    embeds: list[dict[str, Any]]
    components: list[dict[str, Any]]
    allowed_mentions: dict[str, Any] | None
    flags: int = 0
    interaction_id: int | None = None
    edits: int = 0
    pinged: frozenset[str] = frozenset()  # "everyone", "here", "user:<id>", "role:<id>"
    attachments: list[Attachment] = field(default_factory=list)
    at: float = field(default_factory=time.monotonic)  # when it got its present content

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def text(self) -> str:
        """The content and every embed's text, for assertions."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title") or "", embed.get("description") or ""]
            for f in embed.get("fields") or []:
                parts += [f.get("name") or "", f.get("value") or ""]
            parts.append((embed.get("footer") or {}).get("text") or "")
        return "\n".join(p for p in parts if p)

    def buttons(self) -> list[dict[str, Any]]:
        return [c for row in self.components for c in row.get("components", [])]

    def images(self) -> list[str]:
        """The file names the embeds show (`attachment://NAME`), in order."""
        urls = [(e.get("image") or {}).get("url") or "" for e in self.embeds]
        return [u.removeprefix("attachment://") for u in urls if u.startswith("attachment://")]

    def pngs(self) -> list[bytes]:
        """The PNG files the message carries, in order."""
        return [a.data for a in self.attachments if a.filename.endswith(".png")]

    def payload(self, guild_id: int | None) -> dict[str, Any]:
        data = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "type": 0 if self.interaction_id is None else 20,
            "content": self.content,
            "author": {**User(BOT_USER_ID, "clubtd").payload(), "bot": True},
            "embeds": self.embeds,
            "components": self.components,
            "attachments": [a.payload() for a in self.attachments],
            "mentions": [],
            "mention_roles": [],
            "mention_everyone": "everyone" in self.pinged,
            "pinned": False,
            "tts": False,
            "timestamp": _now(),
            "edited_timestamp": _now() if self.edits else None,
            "flags": self.flags,
        }
        if guild_id is not None:
            data["guild_id"] = str(guild_id)
        return data


def pings(content: str, allowed: dict[str, Any] | None) -> frozenset[str]:
    """Return who a message really notifies, by Discord's allowed_mentions rules."""
    everyone = {m for m in re.findall(r"@(everyone|here)", content)}
    users = {f"user:{u}" for u in re.findall(r"<@!?(\d+)>", content)}
    roles = {f"role:{r}" for r in re.findall(r"<@&(\d+)>", content)}
    if allowed is None:  # Discord's default: everything written pings
        return frozenset(everyone | users | roles)
    parse = set(allowed.get("parse") or [])
    found: set[str] = set()
    if "everyone" in parse:
        found |= everyone
    found |= users if "users" in parse else users & {f"user:{u}" for u in allowed.get("users", [])}
    found |= roles if "roles" in parse else roles & {f"role:{r}" for r in allowed.get("roles", [])}
    return frozenset(found)


@dataclass
class Interaction:
    id: int
    token: str
    channel_id: int
    guild_id: int | None
    user: User
    created: float
    responses: list[dict[str, Any]] = field(default_factory=list)  # callback bodies
    responded: list[float] = field(default_factory=list)  # when each callback came (time.time)
    original: int | None = None  # message id of the response
    followups: list[int] = field(default_factory=list)
    choices: list[dict[str, Any]] | None = None  # an autocomplete answer
    answered: asyncio.Event = field(default_factory=asyncio.Event)
    original_edits: int = 0  # edits of the original response (the answer after a deferral)
    pressed: int | None = None  # the message whose button was pressed
    original_deleted: bool = False

    @property
    def deferred(self) -> bool:
        return any(r["type"] in (5, 6) for r in self.responses)


@dataclass
class RateLimit:
    """Answer the next `times` requests matching `pattern` with a 429."""

    pattern: re.Pattern[str]
    method: str
    times: int
    retry_after: float


class StandIn:
    """The server: state, REST routes, the gateway, and what tests drive and read."""

    def __init__(self, token: str = "clubtd-test-token") -> None:
        self.token = token
        self.bot = User(BOT_USER_ID, "clubtd")
        self.users: dict[int, User] = {}
        self.guilds: dict[int, Guild] = {}
        self.messages: dict[int, Message] = {}
        # Who each new message notified, as it was posted (Discord pings on a post, not
        # on an edit): (message id, its content then, who it pinged).
        self.notified: list[tuple[int, str, frozenset[str]]] = []
        self.interactions: dict[int, Interaction] = {}
        self.dm_channels: dict[int, int] = {}  # channel id -> user id
        self.commands: list[dict[str, Any]] = []
        self.rate_limits: list[RateLimit] = []
        self.rate_limited: list[str] = []  # "METHOD path" of each 429 given
        self.requests: list[str] = []
        self.sockets: list[web.WebSocketResponse] = []
        self.upload_limit = UPLOAD_LIMIT
        self.refused_uploads: list[str] = []  # "METHOD path" of each upload refused
        self.identified = asyncio.Event()
        # Sharding: what GET /gateway/bot advises, and the [shard, count] each connection
        # identified with; a guild's events go to its shard's connection, DMs to shard 0.
        self.shard_count = 1
        self.shards: dict[web.WebSocketResponse, tuple[int, int]] = {}
        self.identifies: list[tuple[int, int]] = []
        self.synced = asyncio.Event()  # the bot put its application commands
        self.changed = asyncio.Condition()
        self._seq = 0
        self._runner: web.AppRunner | None = None
        self.port = 0

    # -- set-up by tests --

    def user(
        self, user_id: int, name: str, *, dms_closed: bool = False, locale: str = "en-US"
    ) -> User:
        self.users[user_id] = User(user_id, name, dms_closed, locale)
        return self.users[user_id]

    def guild(self, guild_id: int, name: str, channels: dict[int, str]) -> Guild:
        self.guilds[guild_id] = Guild(guild_id, name, channels)
        return self.guilds[guild_id]

    def join(
        self, guild_id: int, user: User, *, manage: bool = False, roles: list[int] = ()
    ) -> None:  # type: ignore[assignment]
        permissions = MEMBER_PERMISSIONS | (MANAGE_GUILD if manage else 0)
        self.guilds[guild_id].members[user.id] = Member(user, list(roles), permissions)

    def rate_limit(
        self, method: str, pattern: str, *, times: int = 1, retry_after: float = 0.3
    ) -> None:
        self.rate_limits.append(RateLimit(re.compile(pattern), method, times, retry_after))

    # -- the server --

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_url(self) -> str:
        """What CLUBTD_DISCORD_API_URL says."""
        return f"{self.url}/api/v10"

    async def start(self) -> None:
        app = web.Application(middlewares=[self._middleware])
        app.router.add_get("/gateway", self._gateway)
        api = "/api/v10"
        routes: list[tuple[str, str, Callable[..., Any]]] = [
            ("GET", "/users/@me", self._me),
            ("GET", "/oauth2/applications/@me", self._application),
            ("GET", "/applications/@me", self._application),
            ("GET", "/gateway/bot", self._gateway_bot),
            ("GET", "/gateway", self._gateway_bot),
            ("PUT", "/applications/{app}/commands", self._put_commands),
            ("GET", "/applications/{app}/commands", self._get_commands),
            ("PUT", "/applications/{app}/guilds/{guild}/commands", self._put_commands),
            ("POST", "/interactions/{id}/{token}/callback", self._callback),
            ("POST", "/webhooks/{app}/{token}", self._followup),
            ("GET", "/webhooks/{app}/{token}/messages/{message}", self._get_webhook_message),
            ("PATCH", "/webhooks/{app}/{token}/messages/{message}", self._edit_webhook_message),
            ("DELETE", "/webhooks/{app}/{token}/messages/{message}", self._delete_webhook_message),
            ("POST", "/channels/{channel}/messages", self._post_message),
            ("PATCH", "/channels/{channel}/messages/{message}", self._edit_message),
            ("GET", "/channels/{channel}/messages/{message}", self._get_message),
            ("POST", "/users/@me/channels", self._open_dm),
        ]
        for method, path, handler in routes:
            app.router.add_route(method, api + path, handler)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", self.port)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def stop(self) -> None:
        for ws in list(self.sockets):
            await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def disconnect(self) -> None:
        """Drop the gateway connections (the bot process went away)."""
        for ws in list(self.sockets):
            await ws.close()
        self.sockets.clear()
        self.shards.clear()
        self.identified.clear()

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Callable[..., Any]) -> Any:
        path = request.path
        if path.startswith("/api/"):
            self.requests.append(f"{request.method} {path}")
            # Interaction callbacks and follow-ups carry the interaction's token instead.
            webhook = path.startswith(("/api/v10/interactions/", "/api/v10/webhooks/"))
            if not webhook and request.headers.get("Authorization") != f"Bot {self.token}":
                return error(401, 0, "401: Unauthorized")
            for limit in self.rate_limits:
                if (
                    limit.times > 0
                    and limit.method == request.method
                    and limit.pattern.search(path)
                ):
                    limit.times -= 1
                    self.rate_limited.append(f"{request.method} {path}")
                    return json_response(
                        {
                            "message": "You are being rate limited.",
                            "retry_after": limit.retry_after,
                            "global": False,
                        },
                        429,
                        {"Via": "1.1 google", "Retry-After": str(limit.retry_after)},
                    )
        return await handler(request)

    # -- REST --

    async def _me(self, request: web.Request) -> Any:
        return json_response({**self.bot.payload(), "bot": True, "verified": True, "flags": 0})

    async def _application(self, request: web.Request) -> Any:
        return json_response(
            {
                "id": str(APPLICATION_ID),
                "name": "clubtd",
                "icon": None,
                "description": "",
                "rpc_origins": [],
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": self.bot.payload(),
                "summary": "",
                "verify_key": "0" * 64,
                "flags": 0,
                "team": None,
            }
        )

    async def _gateway_bot(self, request: web.Request) -> Any:
        return json_response(
            {
                "url": f"ws://127.0.0.1:{self.port}/gateway",
                "shards": self.shard_count,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 1000,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        )

    async def _put_commands(self, request: web.Request) -> Any:
        body = await request.json()
        self.commands = [
            {**c, "id": str(snowflake()), "application_id": str(APPLICATION_ID), "version": "1"}
            for c in body
        ]
        self.synced.set()
        return json_response(self.commands)

    async def _get_commands(self, request: web.Request) -> Any:
        return json_response(self.commands)

    async def _callback(self, request: web.Request) -> Any:
        interaction = self.interactions.get(int(request.match_info["id"]))
        if interaction is None or interaction.token != request.match_info["token"]:
            return error(404, 10062, "Unknown interaction")
        if time.time() - interaction.created > EXPIRY_SECONDS:
            return error(404, 10062, "Unknown interaction")
        if interaction.responses:
            return error(400, 40060, "Interaction has already been acknowledged.")
        try:
            body, files = await self._upload(request)
        except TooLarge:
            return error(413, 40005, "Request entity too large")
        interaction.responses.append(body)
        interaction.responded.append(time.time())
        kind, data = body["type"], body.get("data") or {}
        message: Message | None = None
        if kind == 8:
            interaction.choices = data.get("choices", [])
        elif kind in (4, 5):
            message = self._store(
                interaction.channel_id,
                data if kind == 4 else {"content": "", "flags": data.get("flags", 0)},
                interaction_id=interaction.id,
                files=files,
            )
            interaction.original = message.id
        elif kind in (6, 7) and interaction.pressed is not None:
            # The message the button is under: the interaction's original from now on.
            interaction.original = interaction.pressed
            pressed = self.messages.get(interaction.pressed)
            if kind == 7 and pressed is not None:
                self._edit(pressed, data, files)
                interaction.original_edits += 1
        interaction.answered.set()
        await self._notify()
        return json_response(
            {
                "interaction": {
                    "id": str(interaction.id),
                    "type": 2,
                    "response_message_id": str(message.id) if message else None,
                    "response_message_loading": kind == 5,
                    "response_message_ephemeral": bool(message is not None and message.ephemeral),
                },
                "resource": {
                    "type": kind,
                    **({"message": message.payload(interaction.guild_id)} if message else {}),
                },
            }
        )

    def _interaction_by_token(self, token: str) -> Interaction | None:
        return next((i for i in self.interactions.values() if i.token == token), None)

    async def _followup(self, request: web.Request) -> Any:
        interaction = self._interaction_by_token(request.match_info["token"])
        if interaction is None or not interaction.responses:
            return error(404, 10015, "Unknown Webhook")
        try:
            body, files = await self._upload(request)
        except TooLarge:
            return error(413, 40005, "Request entity too large")
        message = self._store(
            interaction.channel_id, body, interaction_id=interaction.id, files=files
        )
        interaction.followups.append(message.id)
        await self._notify()
        return json_response(message.payload(interaction.guild_id))

    def _webhook_target(self, request: web.Request) -> tuple[Interaction | None, Message | None]:
        interaction = self._interaction_by_token(request.match_info["token"])
        if interaction is None:
            return None, None
        wanted = request.match_info["message"]
        message_id = interaction.original if wanted == "@original" else int(wanted)
        return interaction, self.messages.get(message_id) if message_id else None

    async def _get_webhook_message(self, request: web.Request) -> Any:
        interaction, message = self._webhook_target(request)
        if interaction is None or message is None:
            return error(404, 10008, "Unknown Message")
        return json_response(message.payload(interaction.guild_id))

    async def _edit_webhook_message(self, request: web.Request) -> Any:
        interaction, message = self._webhook_target(request)
        if interaction is None or message is None:
            return error(404, 10008, "Unknown Message")
        try:
            body, files = await self._upload(request)
        except TooLarge:
            return error(413, 40005, "Request entity too large")
        self._edit(message, body, files)
        if message.id == interaction.original:
            interaction.original_edits += 1
        await self._notify()
        return json_response(message.payload(interaction.guild_id))

    async def _delete_webhook_message(self, request: web.Request) -> Any:
        interaction, message = self._webhook_target(request)
        if interaction is None or message is None:
            return error(404, 10008, "Unknown Message")
        del self.messages[message.id]
        if message.id == interaction.original:
            interaction.original_deleted = True
            interaction.original = None
        await self._notify()
        return web.Response(status=204)

    async def _post_message(self, request: web.Request) -> Any:
        channel_id = int(request.match_info["channel"])
        guild_id = self._guild_of(channel_id)
        if guild_id is None and channel_id not in self.dm_channels:
            return error(404, 10003, "Unknown Channel")
        if channel_id in self.dm_channels and self.users[self.dm_channels[channel_id]].dms_closed:
            return error(403, 50007, "Cannot send messages to this user")
        try:
            body, files = await self._upload(request)
        except TooLarge:
            return error(413, 40005, "Request entity too large")
        message = self._store(channel_id, body, files=files)
        await self._notify()
        return json_response(message.payload(guild_id))

    async def _edit_message(self, request: web.Request) -> Any:
        message = self.messages.get(int(request.match_info["message"]))
        if message is None or message.channel_id != int(request.match_info["channel"]):
            return error(404, 10008, "Unknown Message")
        try:
            body, files = await self._upload(request)
        except TooLarge:
            return error(413, 40005, "Request entity too large")
        self._edit(message, body, files)
        await self._notify()
        return json_response(message.payload(self._guild_of(message.channel_id)))

    async def _get_message(self, request: web.Request) -> Any:
        message = self.messages.get(int(request.match_info["message"]))
        if message is None:
            return error(404, 10008, "Unknown Message")
        return json_response(message.payload(self._guild_of(message.channel_id)))

    async def _open_dm(self, request: web.Request) -> Any:
        user_id = int((await request.json())["recipient_id"])
        if user_id not in self.users:
            return error(404, 10013, "Unknown User")
        channel_id = next((c for c, u in self.dm_channels.items() if u == user_id), None)
        if channel_id is None:
            channel_id = snowflake()
            self.dm_channels[channel_id] = user_id
        return json_response(
            {
                "id": str(channel_id),
                "type": 1,
                "last_message_id": None,
                "recipients": [self.users[user_id].payload()],
            }
        )

    def _guild_of(self, channel_id: int) -> int | None:
        return next((g.id for g in self.guilds.values() if channel_id in g.channels), None)

    async def _upload(self, request: web.Request) -> tuple[dict[str, Any], list[Attachment]]:
        """Read a request's JSON body and its files; raise TooLarge over the limit."""
        body, files = await _body(request)
        if sum(len(data) for _, data in files) > self.upload_limit:
            self.refused_uploads.append(f"{request.method} {request.path}")
            raise TooLarge
        return body, [Attachment(snowflake(), name, data) for name, data in files]

    def _store(
        self,
        channel_id: int,
        body: dict[str, Any],
        *,
        interaction_id: int | None = None,
        files: list[Attachment] | None = None,
    ) -> Message:
        content = body.get("content") or ""
        allowed = body.get("allowed_mentions")
        message = Message(
            id=snowflake(),
            channel_id=channel_id,
            content=content,
            embeds=body.get("embeds") or [],
            components=body.get("components") or [],
            allowed_mentions=allowed,
            flags=int(body.get("flags") or 0),
            interaction_id=interaction_id,
            pinged=pings(content, allowed),
            attachments=_attached([], body, files or []),
        )
        self.messages[message.id] = message
        self.notified.append((message.id, content, message.pinged))
        return message

    def _edit(
        self, message: Message, body: dict[str, Any], files: list[Attachment] | None = None
    ) -> None:
        if "attachments" in body or files:
            message.attachments = _attached(message.attachments, body, files or [])
        if "content" in body:
            message.content = body["content"] or ""
        if "embeds" in body:
            message.embeds = body["embeds"] or []
        if "components" in body:
            message.components = body["components"] or []
        if "allowed_mentions" in body:
            message.allowed_mentions = body["allowed_mentions"]
        message.pinged = pings(message.content, message.allowed_mentions)
        message.edits += 1
        message.at = time.monotonic()

    async def _notify(self) -> None:
        async with self.changed:
            self.changed.notify_all()

    # -- the gateway --

    async def _gateway(self, request: web.Request) -> Any:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        await ws.send_json({"op": 10, "d": {"heartbeat_interval": 41250}, "s": None, "t": None})
        async for frame in ws:
            if frame.type != WSMsgType.TEXT:
                continue
            data = json.loads(frame.data)
            op = data.get("op")
            if op == 1:
                await ws.send_json({"op": 11, "d": None, "s": None, "t": None})
            elif op == 2:
                await self._identify(ws, data["d"])
            elif op == 6:  # RESUME: a new session instead
                await ws.send_json({"op": 9, "d": False, "s": None, "t": None})
        if ws in self.sockets:
            self.sockets.remove(ws)
        self.shards.pop(ws, None)
        return ws

    async def _identify(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> None:
        if data.get("token") not in (self.token, f"Bot {self.token}"):
            await ws.close(code=4004, message=b"Authentication failed.")
            return
        if int(data.get("intents", 0)) & ((1 << 1) | (1 << 8) | (1 << 15)):
            await ws.close(code=4014, message=b"Disallowed intent(s).")
            return
        shard_id, count = (int(n) for n in data.get("shard") or (0, 1))
        if not 0 <= shard_id < count:
            await ws.close(code=4010, message=b"Invalid shard.")
            return
        guilds = [g for g in self.guilds.values() if (g.id >> 22) % count == shard_id]
        await self._dispatch(
            ws,
            "READY",
            {
                "v": 10,
                "user": {**self.bot.payload(), "bot": True, "verified": True, "flags": 0},
                "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
                "session_id": f"session-{snowflake()}",
                "resume_gateway_url": f"ws://127.0.0.1:{self.port}/gateway",
                "application": {"id": str(APPLICATION_ID), "flags": 0},
                "shard": [shard_id, count],
            },
        )
        for guild in guilds:
            await self._dispatch(ws, "GUILD_CREATE", guild.payload())
        self.sockets.append(ws)
        self.shards[ws] = (shard_id, count)
        self.identifies.append((shard_id, count))
        self.identified.set()
        await self._notify()

    async def _dispatch(self, ws: web.WebSocketResponse, event: str, data: Any) -> None:
        self._seq += 1
        await ws.send_json({"op": 0, "t": event, "s": self._seq, "d": data})

    def _sockets_for(self, guild_id: int | None) -> list[web.WebSocketResponse]:
        """Return the connections of the shard that owns `guild_id` (DMs: shard 0)."""
        return [
            ws
            for ws, (shard_id, count) in self.shards.items()
            if shard_id == (0 if guild_id is None else (guild_id >> 22) % count)
        ]

    async def broadcast(self, event: str, data: Any) -> None:
        """Send an event to the connection of its guild's shard (DMs: shard 0)."""
        guild_id = int(data["guild_id"]) if isinstance(data, dict) and "guild_id" in data else None
        deadline = time.monotonic() + 30
        async with self.changed:
            while not self._sockets_for(guild_id):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no gateway connection for guild {guild_id}")
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.changed.wait(), timeout=left)
        for ws in self._sockets_for(guild_id):
            await self._dispatch(ws, event, data)

    # -- what tests do --

    def _interaction_payload(
        self,
        kind: int,
        user: User,
        data: dict[str, Any],
        *,
        guild_id: int | None,
        channel_id: int | None,
        message: Message | None = None,
        interaction_id: int | None = None,
    ) -> tuple[Interaction, dict[str, Any]]:
        iid = interaction_id or snowflake()
        token = f"tok-{iid}"
        if guild_id is None:  # a direct message
            dm = next((c for c, u in self.dm_channels.items() if u == user.id), None)
            if dm is None:
                dm = snowflake()
                self.dm_channels[dm] = user.id
            channel_id = dm
        assert channel_id is not None
        payload: dict[str, Any] = {
            "id": str(iid),
            "application_id": str(APPLICATION_ID),
            "type": kind,
            "token": token,
            "version": 1,
            "data": data,
            "channel_id": str(channel_id),
            "locale": user.locale,
            "app_permissions": str((1 << 50) - 1),
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(guild_id or user.id)},
            "context": 0 if guild_id else 1,
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if guild_id is not None:
            member = self.guilds[guild_id].members[user.id]
            payload["guild_id"] = str(guild_id)
            payload["guild_locale"] = "en-US"
            payload["member"] = member.payload()
            payload["channel"] = {
                "id": str(channel_id),
                "type": 0,
                "guild_id": str(guild_id),
                "name": self.guilds[guild_id].channels[channel_id],
                "position": 0,
                "permission_overwrites": [],
                "nsfw": False,
                "parent_id": None,
            }
        else:
            payload["user"] = user.payload()
            payload["channel"] = {
                "id": str(channel_id),
                "type": 1,
                "recipients": [user.payload()],
                "last_message_id": None,
            }
        if message is not None:
            payload["message"] = message.payload(guild_id)
        interaction = self.interactions.get(iid) or Interaction(
            iid, token, channel_id, guild_id, user, time.time()
        )
        if message is not None:
            interaction.pressed = message.id
        self.interactions[iid] = interaction
        return interaction, payload

    def _command_data(self, name: str, options: dict[str, Any]) -> dict[str, Any]:
        """Build `data` for a slash command; `sub` names a subcommand."""
        command = next((c for c in self.commands if c["name"] == name), None)
        if command is None:
            raise AssertionError(
                f"/{name} is not a synced command: {[c['name'] for c in self.commands]}"
            )
        opts = dict(options)
        sub = opts.pop("sub", None)
        focused = opts.pop("focused", None)
        declared = command.get("options") or []
        if sub is not None:
            subcommand = next(o for o in declared if o["name"] == sub)
            inner = _options(subcommand.get("options") or [], opts, focused)
            values = [{"name": sub, "type": subcommand["type"], "options": inner}]
        else:
            values = _options(declared, opts, focused)
        return {"id": command["id"], "name": name, "type": 1, "options": values}

    async def slash(
        self,
        user: User,
        name: str,
        /,
        *,
        guild_id: int | None = None,
        channel_id: int | None = None,
        interaction_id: int | None = None,
        **options: Any,
    ) -> Interaction:
        """`user` runs `/name` with `options` (option name -> value; `sub=` a subcommand)."""
        interaction, payload = self._interaction_payload(
            2,
            user,
            self._command_data(name, options),
            guild_id=guild_id,
            channel_id=channel_id,
            interaction_id=interaction_id,
        )
        await self.broadcast("INTERACTION_CREATE", payload)
        return interaction

    async def autocomplete(
        self,
        user: User,
        name: str,
        focused: str,
        /,
        *,
        guild_id: int | None = None,
        channel_id: int | None = None,
        **options: Any,
    ) -> list[dict[str, Any]]:
        """`user` types in option `focused` of `/name`; return the choices offered."""
        interaction, payload = self._interaction_payload(
            4,
            user,
            self._command_data(name, {**options, "focused": focused}),
            guild_id=guild_id,
            channel_id=channel_id,
        )
        await self.broadcast("INTERACTION_CREATE", payload)
        await asyncio.wait_for(interaction.answered.wait(), timeout=10)
        return interaction.choices or []

    async def press(self, user: User, message: Message, label: str) -> Interaction:
        """`user` presses the button labelled `label` under `message`."""
        buttons = message.buttons()
        matching = [b for b in buttons if b.get("label") == label]
        if not matching:
            raise AssertionError(f"no button {label!r}: {[b.get('label') for b in buttons]}")
        guild_id = self._guild_of(message.channel_id)
        interaction, payload = self._interaction_payload(
            3,
            user,
            {"custom_id": matching[0]["custom_id"], "component_type": 2},
            guild_id=guild_id,
            channel_id=message.channel_id if guild_id else None,
            message=message,
        )
        await self.broadcast("INTERACTION_CREATE", payload)
        return interaction

    async def wait_for(
        self, predicate: Callable[[Message], bool], *, seconds: float = 15.0
    ) -> Message:
        """Return the first recorded message that satisfies `predicate`; wait for it."""
        deadline = time.monotonic() + seconds
        async with self.changed:
            while True:
                for message in self.messages.values():
                    if predicate(message):
                        return message
                left = deadline - time.monotonic()
                if left <= 0:
                    texts = [m.text[:120] for m in self.messages.values()]
                    raise AssertionError(f"no such message; the bot sent: {texts}")
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.changed.wait(), timeout=left)

    async def answer(self, interaction: Interaction, *, seconds: float = 15.0) -> Message:
        """Return the visible answer to an interaction (after a deferral: its follow-up
        or the edited original)."""

        def answered(message: Message) -> bool:
            if message.id == interaction.pressed and interaction.original_edits:
                return True  # a pressed button's message, updated with the answer
            if message.interaction_id != interaction.id:
                return False
            return bool(message.content or message.embeds)

        return await self.wait_for(answered, seconds=seconds)

    def in_channel(self, channel_id: int) -> list[Message]:
        return [m for m in self.messages.values() if m.channel_id == channel_id]

    def dms(self, user_id: int) -> list[Message]:
        channels = {c for c, u in self.dm_channels.items() if u == user_id}
        return [m for m in self.messages.values() if m.channel_id in channels]


def _options(
    declared: list[dict[str, Any]], values: dict[str, Any], focused: str | None
) -> list[dict[str, Any]]:
    out = []
    for option in declared:
        name = option["name"]
        if name not in values:
            continue
        item: dict[str, Any] = {"name": name, "type": option["type"], "value": values[name]}
        if name == focused:
            item["focused"] = True
        out.append(item)
    unknown = set(values) - {o["name"] for o in declared}
    if unknown:
        raise AssertionError(
            f"unknown options {sorted(unknown)}; declared {[o['name'] for o in declared]}"
        )
    return out


def _attached(
    kept: list[Attachment], body: dict[str, Any], files: list[Attachment]
) -> list[Attachment]:
    """Return a message's attachments after a post or an edit, by Discord's rules: the
    body's `attachments` lists the old ones to keep (by id) and the new files (by their
    upload index); without the list, old ones stay and the new ones are added."""
    listed = body.get("attachments")
    if listed is None:
        return [*kept, *files]
    old = {str(a.id): a for a in kept}
    out: list[Attachment] = []
    for item in listed:
        key = str(item.get("id"))
        if key in old:
            out.append(old[key])
        elif key.isdigit() and int(key) < len(files):
            files[int(key)].description = item.get("description")
            out.append(files[int(key)])
    return out


async def _body(request: web.Request) -> tuple[dict[str, Any], list[tuple[str, bytes]]]:
    """Read a JSON body, or a multipart upload: its payload_json and its `files[n]`."""
    if not request.content_type.startswith("multipart/"):
        return dict(await request.json()), []
    body: dict[str, Any] = {}
    files: list[tuple[int, str, bytes]] = []
    reader = await request.multipart()
    async for part in reader:
        name = getattr(part, "name", None) or ""
        if name == "payload_json":
            body = json.loads(await part.text())  # type: ignore[union-attr]
        elif name.startswith("files["):
            index = int(name.removeprefix("files[").removesuffix("]"))
            data = bytes(await part.read())  # type: ignore[union-attr]
            files.append((index, getattr(part, "filename", None) or f"file{index}", data))
    return body, [(filename, data) for _, filename, data in sorted(files)]
