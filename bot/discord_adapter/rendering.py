"""Discord rendering: markdown text, an embed per table, pictures as files, buttons.

A picture becomes a `Shot`: drawn when it is sent (bot/discord_adapter/posts.py), shown
as an embed whose image is the uploaded PNG, with its text twin ready in case Discord
refuses the file. With the club's pictures off, a picture is its text twin (embeds).

Every user string is escaped for Discord markdown by the shared renderer (and
`@everyone` is defused); `allowed_mentions` is none unless a message names the people
it is about, so nothing a player types can ping anyone.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

import discord

from bot.pictures import separate
from bot.sending.parts import split_lines
from commands.rendering import Renderer
from commands.replies import Msg, Picture, Reply, as_text

CONTENT_LIMIT = 2000
EMBED_DESCRIPTION_LIMIT = 4096
EMBEDS_PER_MESSAGE = 10
CUSTOM_ID_LIMIT = 100
CUSTOM_ID_PREFIX = "ctd:"  # a button of ours: what follows is a command or a stored token
TOKEN_MARK = "#"
NO_MENTIONS = discord.AllowedMentions.none()
EMBED_COLOUR = 0x2E7D32


@dataclass(frozen=True, slots=True)
class Shot:
    """A picture to upload as a file, drawn when sent in the club's language and zone."""

    picture: Picture
    language: str
    timezone: str
    fallback: Outgoing  # its text twin, sent instead when Discord refuses the file


@dataclass(frozen=True, slots=True)
class Outgoing:
    """One reply, ready for Discord: messages of text and embeds, then the pictures
    (up to PICTURES_PER_MESSAGE a message), buttons under the last message."""

    contents: tuple[str, ...]
    embeds: tuple[discord.Embed, ...]
    buttons: tuple[tuple[str, str], ...]  # (label, command)
    mentions: tuple[int, ...] = field(default=())  # users this message may ping
    shots: tuple[Shot, ...] = field(default=())

    @property
    def empty(self) -> bool:
        return not self.contents and not self.embeds and not self.shots

    def allowed_mentions(self) -> discord.AllowedMentions:
        if not self.mentions:
            return NO_MENTIONS
        return discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(u) for u in self.mentions]
        )

    def messages(self) -> list[tuple[str | None, list[discord.Embed]]]:
        """Return (content, embeds) per message to send: text first, the tables after."""
        out: list[tuple[str | None, list[discord.Embed]]] = [(c, []) for c in self.contents]
        embeds = list(self.embeds)
        while embeds:
            batch, embeds = embeds[:EMBEDS_PER_MESSAGE], embeds[EMBEDS_PER_MESSAGE:]
            if out and not out[-1][1] and len(batch) <= EMBEDS_PER_MESSAGE:
                out[-1] = (out[-1][0], batch)
            else:
                out.append((None, batch))
        return out


def render(reply: Reply, language: str, timezone: str, *, pictures: bool = True) -> Outgoing:
    """Render a reply: messages as markdown text, each table as an embed, each picture
    as a file to draw (or, with `pictures` off, as its text twin)."""
    reply, shown = separate(reply, enabled=pictures)
    shots = tuple(
        Shot(picture, language, timezone, render(Reply(picture.fallback), language, timezone))
        for picture in shown
    )
    renderer = Renderer(language, timezone, "markdown")
    texts: list[str] = []
    embeds: list[discord.Embed] = []
    for part in as_text(reply.parts):
        if isinstance(part, Msg):
            texts.append(renderer.message(part))
        else:
            table = renderer.table(part)
            title, _, rest = table.partition("\n")
            body = rest if rest.startswith("```") else table
            embed = discord.Embed(
                title=title[:256] if rest.startswith("```") else None,
                description=body[:EMBED_DESCRIPTION_LIMIT],
                colour=EMBED_COLOUR,
            )
            embeds.append(embed)
    buttons = tuple((renderer.plain(b.label)[:80], b.command) for b in reply.buttons)
    return Outgoing(tuple(split("\n".join(texts))), tuple(embeds), buttons, shots=shots)


def split(text: str, limit: int = CONTENT_LIMIT) -> list[str]:
    """Split text at line ends into messages of at most `limit` characters."""
    return split_lines(text, limit)


def custom_id(command: str) -> str | None:
    """Return the custom id that carries `command`, or None when it needs a token."""
    value = CUSTOM_ID_PREFIX + command
    return value if len(value) <= CUSTOM_ID_LIMIT else None


def token_for(command: str) -> str:
    """Return a stable short token for a command too long for a custom id."""
    return TOKEN_MARK + hashlib.sha256(command.encode()).hexdigest()[:24]
