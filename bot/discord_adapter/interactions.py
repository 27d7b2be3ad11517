"""Discord interactions -> Invocation -> use case -> reply.

A slash command or a button press becomes an `Invocation` (the club is the server, the
channel is where the answer goes) and runs through `commands.dispatch.handle`,
deduplicated by the interaction id. Discord wants an answer within 3 seconds: a
command still running after `defer_after` (its use case, and drawing its pictures) is
deferred first; the answer then edits the deferred response, more messages follow up.
Routine answers (register, check-in, reports, look-ups, refusals) are ephemeral.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Callable
from datetime import datetime

import aiohttp
import discord
from discord.utils import MISSING

from bot import pictures
from bot.discord_adapter.posts import ACK, Draw, Post, prepare, refuses_file, updated
from bot.discord_adapter.rendering import CUSTOM_ID_PREFIX, Outgoing, render
from bot.discord_adapter.transport import PLATFORM, DiscordTransport
from bot.sending.languages import ChatLanguages
from bot.sending.replies import ReplyOutbox
from bot.sending.running import Poke, run_command
from bot.sending.serial import PerKey
from bot.sending.transport import SendError
from bot.throttle import Throttle, Verdict
from commands.config import CommandConfig
from commands.dispatch import Response
from commands.parsing import Parsed
from commands.replies import say
from commands.session import Invocation
from commands.suggest import Asker, suggest
from storage.outbox import OutboxStore
from storage.unit_of_work import SqlUnitOfWorkFactory

log = logging.getLogger("clubtd.discord")

# A quiet channel (issue 20): routine answers only the asker sees. What the club must
# see (the draw, results, disputes, penalties, the knockout) is announced apart.
EPHEMERAL_COMMANDS = frozenset(
    {
        "me",
        "schedule",
        "help",
        "register",
        "confirm",
        "withdraw",
        "checkin",
        "report",
        "accept",
        "standings",
        "bracket",
        "ranking",
        "rules",
        "web",
    }
)
# What answering an interaction may raise: Discord's refusals and the network's faults
# (the same that DiscordTransport.deliver maps to the sending layer's errors).
ANSWER_ERRORS = (discord.DiscordException, aiohttp.ClientError, TimeoutError, OSError)


@dataclasses.dataclass(slots=True)
class Went:
    """How many messages of an answer are out (in the chat or to the asker)."""

    count: int = 0
    ids: list[str] = dataclasses.field(default_factory=list)  # the messages, when known


class InteractionHandlers:
    """What the command tree and the button listener call."""

    def __init__(
        self,
        *,
        uow_factory: SqlUnitOfWorkFactory,
        config: CommandConfig,
        clock: Callable[[], datetime],
        transport: DiscordTransport,
        director_role: str | None = None,
        defer_after: float = 1.0,
        poke: Poke | None = None,
        queued: Callable[[], None] | None = None,
        outbox: OutboxStore | None = None,
        draw: Draw = pictures.render,
        throttle: Throttle | None = None,
        languages: ChatLanguages | None = None,
    ) -> None:
        self.uow_factory = uow_factory
        self.config = config
        self.clock = clock
        self.transport = transport
        self.director_role = director_role
        self.defer_after = defer_after
        self.poke = poke
        self.queued = queued
        self.draw = draw
        self.replies = ReplyOutbox(PLATFORM, uow_factory, outbox, clock)
        self.throttle = throttle or Throttle()
        self.languages = languages or ChatLanguages(uow_factory, PLATFORM, config.default_language)
        self.serial = PerKey()

    # -- who --

    def is_director(self, interaction: discord.Interaction) -> bool:
        """Manage Server, or the configured director role (CLUBTD_DIRECTORS is checked
        by the use cases). Checked here, not by Discord's default permissions."""
        if interaction.guild_id is None:
            return False
        if interaction.permissions.manage_guild:
            return True
        member = interaction.user
        if self.director_role and isinstance(member, discord.Member):
            # By id only: anyone with Manage Roles can name a role like another's id.
            wanted = self.director_role.strip()
            return any(str(role.id) == wanted for role in member.roles)
        return False

    def invocation(
        self,
        interaction: discord.Interaction,
        text: str,
        *,
        pressed: bool = False,
        parsed: Parsed | None = None,
    ) -> Invocation:
        user = interaction.user
        private = interaction.guild_id is None
        return Invocation(
            platform=PLATFORM,
            chat=f"user:{user.id}" if private else str(interaction.guild_id),
            channel=str(interaction.channel_id),
            user=str(user.id),
            user_name=user.display_name,
            text=text,
            now=self.clock(),
            private=private,
            chat_admin=self.is_director(interaction),
            update_id=str(interaction.id),
            pressed=pressed,
            parsed=parsed,
            locale=str(getattr(interaction, "locale", "") or "") or None,
        )

    # -- commands and buttons --

    async def command(
        self,
        interaction: discord.Interaction,
        name: str,
        text: str,
        parsed: Parsed | None = None,
    ) -> None:
        """Run a slash command: its options as values (`parsed`), `text` describing it."""
        if await self._admitted(interaction):
            await self.run(interaction, text, ephemeral=name in EPHEMERAL_COMMANDS, parsed=parsed)

    async def on_button(self, interaction: discord.Interaction) -> None:
        data: object = dict(interaction.data or {}).get("custom_id", "")
        if not isinstance(data, str) or not data.startswith(CUSTOM_ID_PREFIX):
            return
        command = await self.transport.buttons.command_for(data.removeprefix(CUSTOM_ID_PREFIX))
        if command is None:
            await interaction.response.send_message("?", ephemeral=True)
            return
        if await self._admitted(interaction):
            await self.run(interaction, command, ephemeral=False, pressed=True)

    async def _admitted(self, interaction: discord.Interaction) -> bool:
        """Apply the per-person throttle (bot/throttle.py): the first refusal is said once,
        privately, in the chat's language; later ones go unanswered until the bucket
        refills (Discord then tells only the asker that the command did not respond)."""
        user = str(interaction.user.id)
        verdict = self.throttle.allow(user)
        if verdict is Verdict.RUN:
            return True
        if verdict is Verdict.REFUSE:
            private = interaction.guild_id is None
            language = await self.languages.of(
                f"user:{user}" if private else str(interaction.guild_id)
            )
            outgoing = render(say("throttled"), language, self.config.default_timezone)
            try:
                posts = await prepare(outgoing, self.draw)
                await self._answer(interaction, outgoing, posts, True, deferred_hidden=True)
            except ANSWER_ERRORS as error:
                log.info("could not tell %s to slow down: %s", user, error)
        log.info("throttled %s in %s", user, interaction.guild_id or "DMs")
        return False

    async def run(
        self,
        interaction: discord.Interaction,
        text: str,
        *,
        ephemeral: bool,
        pressed: bool = False,
        parsed: Parsed | None = None,
    ) -> None:
        inv = self.invocation(interaction, text, pressed=pressed, parsed=parsed)
        async with self.serial.hold(inv.user):
            # The work runs here, and a timer defers the interaction should it last: a
            # task and a wait for it cost a few loop turns on every command (~0.1 ms of a
            # 2 ms /report), for the rare one that needs the deferral.
            deferral: list[asyncio.Task[None]] = []
            timer = asyncio.get_running_loop().call_later(
                self.defer_after,
                lambda: deferral.append(
                    asyncio.create_task(self._defer(interaction, ephemeral, pressed))
                ),
            )
            try:
                worked = await self._work(inv)
            finally:
                timer.cancel()
                for started in deferral:
                    await started  # the answer must find the interaction deferred
        if worked is None:
            return  # a redelivered interaction: it was answered once already
        response, outgoing, posts = worked
        if not inv.private and response.club_id is not None and inv.chat_admin:
            await self.transport.remember_channel(inv.chat, str(interaction.channel_id))
        handed = await self.reply(
            interaction, inv, response, outgoing, posts, ephemeral=ephemeral, pressed=pressed
        )
        if self.queued is not None and (handed or PLATFORM in response.queued):
            # Only when there is something to send: an idle round still claims, and
            # would compete with the next interaction for the loop and the database.
            self.queued()

    async def _defer(
        self, interaction: discord.Interaction, ephemeral: bool, pressed: bool
    ) -> None:
        """Tell Discord the answer comes later (it wants one within 3 s)."""
        try:
            if pressed:  # type 6: the answer will update the pressed message
                await interaction.response.defer()
            else:
                await interaction.response.defer(ephemeral=ephemeral, thinking=True)
        except ANSWER_ERRORS as error:
            log.warning("could not defer interaction %s: %s", interaction.id, error)

    async def _work(self, inv: Invocation) -> tuple[Response, Outgoing, list[Post]] | None:
        """Run the command and draw its answer's pictures: all the slow part."""
        response = await run_command(
            inv, uow_factory=self.uow_factory, config=self.config, poke=self.poke
        )
        if response is None:
            return None
        outgoing = render(
            response.reply,
            response.language,
            response.timezone,
            pictures=response.pictures,
            director_role=self.director_role,
        )
        return response, outgoing, await prepare(outgoing, self.draw)

    async def reply(
        self,
        interaction: discord.Interaction,
        inv: Invocation,
        response: Response,
        outgoing: Outgoing,
        posts: list[Post],
        *,
        ephemeral: bool,
        pressed: bool = False,
    ) -> bool:
        """Answer the interaction; what cannot go now goes through the outbox. Return
        whether anything was handed to the outbox sender (released or queued).

        A pressed button's answer updates the message the button is under (what
        happened, by whom, its buttons gone) instead of posting a new one.

        Announcements the reply carries (`held`) are marked sent once it went out where
        the club's posts go: in the open, in the club's channel (or the asker's DMs for a
        private chat). A hidden answer, one in another channel of the server, or a
        failed one hands them to the sender, which posts them in the club's channel.
        An answer that failed after some of its messages went is not queued again (that
        would repeat them); what it carries went with those first messages.
        A secret (a link or claim code) is only ever answered hidden, and never queued.
        """
        hidden = ephemeral or response.refused or response.reply.private or response.reply.secret
        went = Went()
        try:
            await self._answer(
                interaction,
                outgoing,
                posts,
                hidden,
                deferred_hidden=ephemeral,
                went=went,
                update=pressed and not hidden,
            )
        except ANSWER_ERRORS as error:
            # The interaction expired (3 s / 15 min), Discord had trouble or the network
            # failed: post instead; what only the asker was to see goes to their DMs.
            log.info("interaction %s answer failed (%s): queued", interaction.id, error)
            chat = f"user:{inv.user}" if hidden else inv.chat
            why = f"to {inv.user}: the interaction could not be answered"
            if went.count and not await self._in_clubs_channel(interaction, inv, hidden):
                # Its first messages are out, but not where the club's news go: what it
                # carries goes through the sender, the rest of it is not queued.
                await self.replies.settle(response, None)
                response = dataclasses.replace(response, held=())
            await self.replies.queue(chat, response, why, partly=went.count > 0)
            return True
        carried = await self._in_clubs_channel(interaction, inv, hidden)
        # The ids let a live message the reply carried (the board) be edited later.
        await self.replies.settle(response, ",".join(went.ids) if carried else None)
        return bool(response.held) and not carried

    async def _in_clubs_channel(
        self, interaction: discord.Interaction, inv: Invocation, hidden: bool
    ) -> bool:
        """Whether an answer in the open here is where the club's announcements go: its
        remembered channel (a server), or the asker's own DMs (a private chat)."""
        if hidden:
            return False
        if inv.private:
            return True
        try:
            channel = await self.transport.channel_for(inv.chat)
        except (SendError, *ANSWER_ERRORS) as error:
            log.info("no channel known for %s (%s): the sender posts its news", inv.chat, error)
            return False
        return interaction.channel_id == channel

    async def _answer(
        self,
        interaction: discord.Interaction,
        outgoing: Outgoing,
        posts: list[Post],
        hidden: bool,
        *,
        deferred_hidden: bool,
        went: Went | None = None,
        update: bool = False,
    ) -> None:
        """Send the answer: the interaction's response (or, after a deferral, an edit of
        the "thinking" message), then follow-ups; buttons under the last message.
        `update`: the first message updates the pressed button's message instead.
        `went` counts the messages that went out, also when a later one fails."""
        went = went if went is not None else Went()
        view = await self.transport.view(outgoing)
        posts = posts or [ACK]
        thinking = interaction.response.is_done()  # deferred: the original is a placeholder
        component = getattr(interaction, "type", None) is discord.InteractionType.component
        pressed_on = getattr(interaction, "message", None) if component else None
        if pressed_on is not None and not (update and not posts[0].files):
            # The pressed message stays as it is; the answer follows it up.
            thinking = False
        updating = False
        if pressed_on is not None and update and not posts[0].files:
            posts = [updated(pressed_on, posts[0], interaction.user.display_name), *posts[1:]]
            updating = True
        if thinking and hidden and not deferred_hidden:
            # Deferred in the open, but the answer is private (a refusal): the public
            # placeholder goes, the answer follows up privately.
            try:
                await interaction.delete_original_response()
            except discord.HTTPException as error:
                log.info("could not delete the placeholder of %s: %s", interaction.id, error)
            thinking = False
        try:
            for index, post in enumerate(posts):
                buttons = view if view is not None and index == len(posts) - 1 else None
                await self._answer_post(
                    interaction,
                    post,
                    buttons,
                    outgoing,
                    hidden,
                    thinking,
                    went,
                    update=updating and index == 0,
                )
                thinking = False
        finally:
            if view is not None:
                view.stop()

    async def _answer_post(
        self,
        interaction: discord.Interaction,
        post: Post,
        view: discord.ui.View | None,
        outgoing: Outgoing,
        hidden: bool,
        thinking: bool,
        went: Went,
        *,
        update: bool = False,
    ) -> None:
        """Send one message of the answer; if Discord refuses its pictures, their text.
        `update`: it replaces the pressed button's message (its old buttons gone)."""
        mentions = outgoing.allowed_mentions()
        out: object = None
        try:
            if update and not interaction.response.is_done():
                await interaction.response.edit_message(
                    content=post.content, embeds=post.embeds, view=view, allowed_mentions=mentions
                )
            elif update:
                await interaction.edit_original_response(
                    content=post.content, embeds=post.embeds, view=view, allowed_mentions=mentions
                )
            elif not interaction.response.is_done():
                out = await interaction.response.send_message(
                    post.content,
                    view=view or MISSING,
                    ephemeral=hidden,
                    allowed_mentions=mentions,
                    embeds=post.embeds,
                    files=post.uploads(),
                )
            elif thinking:
                out = await interaction.edit_original_response(
                    content=post.content,
                    embeds=post.embeds,
                    attachments=post.attachments(),
                    view=view,
                    allowed_mentions=mentions,
                )
            else:
                out = await interaction.followup.send(
                    post.content or MISSING,
                    wait=True,
                    view=view or MISSING,
                    ephemeral=hidden,
                    allowed_mentions=mentions,
                    embeds=post.embeds,
                    files=post.uploads(),
                )
        except discord.HTTPException as error:
            if not post.fallback or not refuses_file(error):
                raise
            log.warning("Discord refused a picture (%s %s): sending its text", error.status, error)
            for index, twin in enumerate(post.fallback):
                last = index == len(post.fallback) - 1
                await self._answer_post(
                    interaction, twin, view if last else None, outgoing, hidden, thinking, went
                )
                thinking = False
        else:
            went.count += 1
            sent = getattr(out, "resource", out)  # a callback's message, or the message
            sent_id = getattr(sent, "id", None)
            if isinstance(sent_id, int):
                went.ids.append(str(sent_id))

    # -- autocomplete --

    async def suggestions(
        self, interaction: discord.Interaction, kind: str, typed: str
    ) -> list[tuple[str, str]]:
        private = interaction.guild_id is None
        chosen = getattr(interaction.namespace, "club", None)
        asker = Asker(
            platform=PLATFORM,
            chat=f"user:{interaction.user.id}" if private else str(interaction.guild_id),
            user=str(interaction.user.id),
            private=private,
            club=str(chosen) if chosen else None,
        )
        try:
            return await suggest(kind, typed, asker, uow_factory=self.uow_factory)
        except Exception:
            log.exception("autocomplete %s failed", kind)
            return []
