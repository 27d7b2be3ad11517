"""Put rendered replies on Discord: channels, direct messages, edits in place, buttons.

Discord's failures become the shared sending layer's neutral errors: a rate limit or
a server error is `RetryLater` (discord.py already waited out the `retry_after` of a
429 it could retry), a refused direct message (403, code 50007) is `Unreachable`,
anything else the server refuses is `Rejected`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

import aiohttp
import discord

from bot.discord_adapter.rendering import CUSTOM_ID_PREFIX, Outgoing, render
from bot.sending.buttons import ButtonStore
from bot.sending.pacing import WindowPacer
from bot.sending.transport import Progress, Rejected, RetryLater, Unreachable
from commands.catalog import template
from commands.rendering import escape
from commands.replies import Reply
from storage.unit_of_work import SqlUnitOfWork
from tournament.club import Club

log = logging.getLogger("clubtd.discord.send")

PLATFORM = "discord"
CHANNEL_KEY = "discord.channel."  # meta: guild id -> the channel the club's posts go to
CANNOT_DM = 50007


class DiscordTransport:
    """Send, edit and address messages on Discord, paced per channel."""

    platform = PLATFORM

    def __init__(
        self,
        client: discord.Client,
        pacer: WindowPacer,
        buttons: ButtonStore,
        uow_factory: Callable[[], SqlUnitOfWork],
    ) -> None:
        self.client = client
        self.pacer = pacer
        self.buttons = buttons
        self.uow_factory = uow_factory
        self._channels: dict[str, int] = {}

    # -- addressing --

    async def remember_channel(self, guild: str, channel: str) -> None:
        """Make `channel` where a server's club posts go, unless one is set already."""
        if guild in self._channels:
            return
        async with self.uow_factory() as uow:
            known = await uow.meta.get(CHANNEL_KEY + guild)
            if known is None:
                await uow.meta.set(CHANNEL_KEY + guild, channel)
                await uow.commit()
                known = channel
        self._channels[guild] = int(known)

    async def channel_for(self, chat: str) -> int:
        """Return the channel id for an outbox chat: a server's channel or a DM."""
        if chat.startswith("user:"):
            user = int(chat.removeprefix("user:"))
            data = await self.client.http.start_private_message(user)
            return int(data["id"])
        if chat not in self._channels:
            async with self.uow_factory() as uow:
                known = await uow.meta.get(CHANNEL_KEY + chat)
            if known is None:
                raise Rejected(f"no channel known for server {chat}")
            self._channels[chat] = int(known)
        return self._channels[chat]

    # -- the Transport interface --

    def delay(self, chat: str) -> float:
        return self.pacer.delay(chat)

    def pause(self, chat: str, seconds: float) -> None:
        self.pacer.pause(chat, seconds)

    async def deliver(
        self, chat: str, reply: Reply, club: Club, live: str | None, progress: Progress
    ) -> str:
        outgoing = render(reply, club.language, club.timezone)
        if outgoing.empty:
            return ""
        try:
            channel_id = await self.channel_for(chat)
            if live:
                ids = [int(p) for p in live.split(",") if p.strip().isdigit()]
                if ids and await self.edit(channel_id, ids, outgoing, chat):
                    return live
            sent = await self.send(channel_id, outgoing, chat)
        except discord.Forbidden as error:
            if error.code == CANNOT_DM or chat.startswith("user:"):
                raise Unreachable(f"403/{error.code}: {error.text}") from error
            raise Rejected(f"403/{error.code}: {error.text}") from error
        except discord.RateLimited as error:
            raise RetryLater(error.retry_after, "429") from error
        except discord.HTTPException as error:
            if error.status >= 500 or error.status == 429:
                raise RetryLater(0.0, f"{error.status}: {error.text}") from error
            raise Rejected(f"{error.status}/{error.code}: {error.text}") from error
        except (aiohttp.ClientError, TimeoutError, OSError) as error:
            raise RetryLater(0.0, f"network: {error!r}") from error
        return ",".join(str(i) for i in sent)

    async def tell_unreachable(self, club_id: int, club: Club, user: str) -> None:
        """Mention the person in the club's server channel: DMs to them are refused."""
        async with self.uow_factory() as uow:
            chats = await uow.clubs.chats(club_id)
            player = await uow.players.by_account(club_id, PLATFORM, user)
        name = escape(player.name if player is not None else user, "markdown")
        mention = f"<@{int(user)}> ({name})"
        raw = template(club.language, "discord.dms_closed")
        text = raw.replace("{name}", mention)
        outgoing = Outgoing((text,), (), (), mentions=(int(user),))
        for platform, chat in chats:
            if platform != PLATFORM or chat.startswith("user:"):
                continue
            channel_id = await self.channel_for(chat)
            await self.send(channel_id, outgoing, chat)

    # -- sending --

    async def view(self, outgoing: Outgoing) -> discord.ui.View | None:
        """Return the buttons as a view whose custom ids carry the commands."""
        if not outgoing.buttons:
            return None
        view = discord.ui.View(timeout=None)
        for label, command in outgoing.buttons[:25]:
            data = await self.buttons.data_for(command)
            view.add_item(
                discord.ui.Button(
                    label=label or "?",
                    custom_id=CUSTOM_ID_PREFIX + data,
                    style=discord.ButtonStyle.secondary,
                )
            )
        return view

    async def send(self, channel_id: int, outgoing: Outgoing, chat: str) -> list[int]:
        """Send every message of a reply (buttons under the last); return their ids."""
        channel = self.client.get_partial_messageable(channel_id)
        view = await self.view(outgoing)
        messages = outgoing.messages()
        ids: list[int] = []
        for index, (content, embeds) in enumerate(messages):
            last = index == len(messages) - 1
            kwargs: dict[str, object] = {
                "content": content,
                "embeds": embeds,
                "allowed_mentions": outgoing.allowed_mentions(),
            }
            if last and view is not None:
                kwargs["view"] = view
            message = await channel.send(**kwargs)  # type: ignore[call-overload]
            self.pacer.record(chat)
            ids.append(message.id)
        if view is not None:
            view.stop()  # the custom ids carry the commands: nothing to keep in memory
        return ids

    async def edit(self, channel_id: int, ids: list[int], outgoing: Outgoing, chat: str) -> bool:
        """Edit a live message in place; False when it is gone or split differently."""
        messages = outgoing.messages()
        if len(messages) != len(ids):
            return False
        channel = self.client.get_partial_messageable(channel_id)
        view = await self.view(outgoing)
        for index, (message_id, (content, embeds)) in enumerate(zip(ids, messages, strict=True)):
            last = index == len(ids) - 1
            try:
                await channel.get_partial_message(message_id).edit(
                    content=content,
                    embeds=embeds,
                    view=view if last else None,
                    allowed_mentions=outgoing.allowed_mentions(),
                )
            except discord.NotFound:
                return False
            self.pacer.record(chat)
        if view is not None:
            view.stop()
        return True


async def wait_briefly(task: asyncio.Task[object], seconds: float) -> bool:
    """Return whether `task` finished within `seconds` (it keeps running either way)."""
    done, _ = await asyncio.wait({task}, timeout=seconds)
    return bool(done)
