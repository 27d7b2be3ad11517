"""Put rendered replies on Discord: channels, direct messages, edits in place, buttons.

Discord's failures become the shared sending layer's neutral errors: a rate limit or
a server error is `RetryLater` (discord.py already waited out the `retry_after` of a
429 it could retry), a refused direct message (403, code 50007) is `Unreachable`,
anything else the server refuses is `Rejected`. A picture goes as a file in an embed;
when Discord refuses the file, its text twin goes instead (posts.py).
"""

from __future__ import annotations

import asyncio
import logging

import aiohttp
import discord

from bot import pictures
from bot.discord_adapter.posts import CANNOT_DM, Draw, Post, prepare, refuses_file
from bot.discord_adapter.rendering import CUSTOM_ID_PREFIX, Outgoing, render
from bot.sending.buttons import ButtonStore
from bot.sending.pacing import WindowPacer
from bot.sending.transport import (
    Progress,
    Rejected,
    RetryLater,
    SendError,
    Unreachable,
    whom_to_tell,
)
from commands.catalog import template
from commands.rendering import escape
from commands.replies import Mention, Reply, msg
from storage.unit_of_work import SqlUnitOfWorkFactory
from tournament.club import Club

log = logging.getLogger("clubtd.discord.send")

PLATFORM = "discord"
CHANNEL_KEY = "discord.channel."  # meta: guild id -> the channel the club's posts go to
DM_CHANNELS_KEPT = 10_000  # people whose DM channel is remembered (then forgotten at once)


class DiscordTransport:
    """Send, edit and address messages on Discord, paced per channel."""

    platform = PLATFORM

    def __init__(
        self,
        client: discord.Client,
        pacer: WindowPacer,
        buttons: ButtonStore,
        uow_factory: SqlUnitOfWorkFactory,
        draw: Draw = pictures.render,
        director_role: str | None = None,
    ) -> None:
        self.client = client
        self.director_role = director_role  # pinged by a call to the club's directors
        self.pacer = pacer
        self.buttons = buttons
        self.uow_factory = uow_factory
        self.draw = draw
        self._channels: dict[str, int] = {}
        self._dms: dict[int, int] = {}  # user id -> their DM channel (Discord keeps it)

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
            dm = self._dms.get(user)
            if dm is None:
                # One request per person and process, not one per direct message.
                data = await self.client.http.start_private_message(user)
                if len(self._dms) >= DM_CHANNELS_KEPT:
                    self._dms.clear()
                dm = self._dms[user] = int(data["id"])
            return dm
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
        outgoing = render(
            reply,
            club.language,
            club.timezone,
            pictures=club.pictures,
            director_role=self.director_role,
        )
        if outgoing.empty:
            return ""
        posts = await prepare(outgoing, self.draw)
        try:
            channel_id = await self.channel_for(chat)
            if live:
                ids = [int(p) for p in live.split(",") if p.strip().isdigit()]
                if ids and await self.edit(channel_id, ids, outgoing, chat, posts):
                    return live
            progress.parts = len(posts)
            sent = await self.send(channel_id, outgoing, chat, posts, progress.sent)
        except (discord.DiscordException, aiohttp.ClientError, TimeoutError, OSError) as error:
            if isinstance(error, discord.NotFound) and chat.startswith("user:"):
                self._dms.pop(int(chat.removeprefix("user:")), None)  # ask again next time
            raise neutral(error, chat) from error
        return ",".join(str(i) for i in sent)

    async def deliver_missed(
        self, club_id: int, club: Club, user: str, reply: Reply
    ) -> str | None:
        """Post a private message Discord refused (closed DMs) in the club's channel, what
        it says and its buttons (still only theirs), under a mention of its person."""
        servers, name = await whom_to_tell(self.uow_factory, PLATFORM, club_id, user)
        if not servers or not user.isdigit():
            return None
        intro = msg("discord.dms_missed", name=Mention(name, users=(user,)))
        shown = Reply((intro, *reply.parts), reply.buttons)
        outgoing = render(shown, club.language, club.timezone, pictures=False)
        sent: list[int] = []
        for chat in servers:
            try:
                sent += await self.send(await self.channel_for(chat), outgoing, chat)
            except (discord.DiscordException, aiohttp.ClientError, TimeoutError, OSError) as error:
                raise neutral(error, chat) from error
        return ",".join(str(i) for i in sent)

    async def tell_unreachable(self, club_id: int, club: Club, user: str) -> None:
        """Mention the person in the club's server channel: DMs to them are refused."""
        servers, name = await whom_to_tell(self.uow_factory, PLATFORM, club_id, user)
        if not servers:
            raise Rejected(f"no Discord channel of club {club_id} to mention {user} in")
        mention = f"<@{int(user)}> ({escape(name, 'markdown')})"
        text = template(club.language, "discord.dms_closed").replace("{name}", mention)
        outgoing = Outgoing((text,), (), (), mentions=(int(user),))
        for chat in servers:
            try:
                await self.send(await self.channel_for(chat), outgoing, chat)
            except (discord.DiscordException, aiohttp.ClientError, TimeoutError, OSError) as error:
                raise neutral(error, chat) from error

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

    async def send(
        self,
        channel_id: int,
        outgoing: Outgoing,
        chat: str,
        posts: list[Post] | None = None,
        done: list[str] | None = None,
    ) -> list[int]:
        """Send every message of a reply (buttons under the last); return their ids.

        `done` holds the ids of each message already sent ("1,2" for a picture that went
        as its text); those are skipped, so a retry does not post the first ones again.
        """
        if posts is None:
            posts = await prepare(outgoing, self.draw)
        done = done if done is not None else []
        channel = self.client.get_partial_messageable(channel_id)
        view = await self.view(outgoing)
        mentions = outgoing.allowed_mentions()
        try:
            for index, post in enumerate(posts):
                if index < len(done):
                    continue
                last = index == len(posts) - 1
                ids = await self._send_post(channel, post, view if last else None, mentions, chat)
                done.append(",".join(str(i) for i in ids))
        finally:
            if view is not None:
                view.stop()  # the custom ids carry the commands: nothing to keep in memory
        return [int(i) for entry in done for i in entry.split(",") if i]

    async def _send_post(
        self,
        channel: discord.PartialMessageable,
        post: Post,
        view: discord.ui.View | None,
        mentions: discord.AllowedMentions,
        chat: str,
    ) -> list[int]:
        """Send one message; if Discord refuses its pictures, their text twin."""
        kwargs: dict[str, object] = {
            "content": post.content,
            "allowed_mentions": mentions,
            "embeds": post.embeds,
            "files": post.uploads(),
        }
        if view is not None:
            kwargs["view"] = view
        try:
            message = await channel.send(**kwargs)  # type: ignore[call-overload]
        except discord.HTTPException as error:
            if not post.fallback or not refuses_file(error):
                raise
            log.warning("Discord refused a picture (%s %s): sending its text", error.status, error)
            ids: list[int] = []
            for index, twin in enumerate(post.fallback):
                last = index == len(post.fallback) - 1
                ids += await self._send_post(channel, twin, view if last else None, mentions, chat)
            return ids
        self.pacer.record(chat)
        return [message.id]

    async def edit(
        self,
        channel_id: int,
        ids: list[int],
        outgoing: Outgoing,
        chat: str,
        posts: list[Post] | None = None,
    ) -> bool:
        """Edit a live message in place (its picture replaced by the new one); False when
        it is gone or the reply now takes a different number of messages."""
        if posts is None:
            posts = await prepare(outgoing, self.draw)
        if len(posts) != len(ids):
            return False
        channel = self.client.get_partial_messageable(channel_id)
        view = await self.view(outgoing)
        mentions = outgoing.allowed_mentions()
        try:
            for index, (message_id, post) in enumerate(zip(ids, posts, strict=True)):
                last = index == len(ids) - 1
                message = channel.get_partial_message(message_id)
                if not await self._edit_post(message, post, view if last else None, mentions):
                    return False
                self.pacer.record(chat)
        finally:
            if view is not None:
                view.stop()
        return True

    async def _edit_post(
        self,
        message: discord.PartialMessage,
        post: Post,
        view: discord.ui.View | None,
        mentions: discord.AllowedMentions,
    ) -> bool:
        """Put a post in a message: new files replace the old ones (none for text)."""
        try:
            await message.edit(
                content=post.content,
                embeds=post.embeds,
                attachments=post.attachments(),
                view=view,
                allowed_mentions=mentions,
            )
        except discord.NotFound:
            return False
        except discord.HTTPException as error:
            if not post.fallback or not refuses_file(error):
                raise
            log.warning("Discord refused a picture (%s %s): its text instead", error.status, error)
            if len(post.fallback) != 1:
                return False  # the text takes more messages: post it anew
            return await self._edit_post(message, post.fallback[0], view, mentions)
        return True


def neutral(error: BaseException, chat: str) -> SendError:
    """Return the sending layer's error for what Discord (or the network) answered."""
    if isinstance(error, discord.Forbidden):
        if error.code == CANNOT_DM or chat.startswith("user:"):
            return Unreachable(f"403/{error.code}: {error.text}")
        return Rejected(f"403/{error.code}: {error.text}")
    if isinstance(error, discord.RateLimited):
        return RetryLater(error.retry_after, "429")
    if isinstance(error, discord.HTTPException):
        if error.status >= 500 or error.status == 429:
            return RetryLater(0.0, f"{error.status}: {error.text}")
        return Rejected(f"{error.status}/{error.code}: {error.text}")
    if isinstance(error, discord.DiscordException):
        return Rejected(f"{type(error).__name__}: {error}")
    return RetryLater(0.0, f"network: {error!r}")


async def wait_briefly(task: asyncio.Task[object], seconds: float) -> bool:
    """Return whether `task` finished within `seconds` (it keeps running either way)."""
    done, _ = await asyncio.wait({task}, timeout=seconds)
    return bool(done)
