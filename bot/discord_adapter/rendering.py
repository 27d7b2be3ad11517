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

from bot.discord_adapter import hints
from bot.pictures import separate
from bot.sending.parts import split_lines
from commands import mentions
from commands.rendering import Renderer
from commands.replies import Msg, Picture, Reply, as_text

CONTENT_LIMIT = 2000
EMBED_DESCRIPTION_LIMIT = 4096
EMBEDS_PER_MESSAGE = 10
EMBED_TITLE_LIMIT = 256
MESSAGE_EMBED_TEXT = 6000  # titles and descriptions of all of one message's embeds
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
    roles: tuple[int, ...] = field(default=())  # roles it may ping (the director role)
    shots: tuple[Shot, ...] = field(default=())

    @property
    def empty(self) -> bool:
        return not self.contents and not self.embeds and not self.shots

    def allowed_mentions(self) -> discord.AllowedMentions:
        if not self.mentions and not self.roles:
            return NO_MENTIONS
        return discord.AllowedMentions(
            everyone=False,
            replied_user=False,
            roles=[discord.Object(r) for r in self.roles] if self.roles else False,
            users=[discord.Object(u) for u in self.mentions] if self.mentions else False,
        )

    def messages(self) -> list[tuple[str | None, list[discord.Embed]]]:
        """Return (content, embeds) per message to send: text first, the tables after."""
        out: list[tuple[str | None, list[discord.Embed]]] = [(c, []) for c in self.contents]
        for batch in _batches(list(self.embeds)):
            if out and not out[-1][1]:
                out[-1] = (out[-1][0], batch)
            else:
                out.append((None, batch))
        return out


def render(
    reply: Reply,
    language: str,
    timezone: str,
    *,
    pictures: bool = True,
    director_role: str | None = None,
) -> Outgoing:
    """Render a reply: messages as markdown text, each table as an embed, each picture
    as a file to draw (or, with `pictures` off, as its text twin). Its mentions ping
    exactly the users they name, and the director role when a dispute calls for it."""
    reply, shown = separate(reply, enabled=pictures)
    shots = tuple(
        Shot(picture, language, timezone, render(Reply(picture.fallback), language, timezone))
        for picture in shown
    )
    renderer = Renderer(
        language, timezone, "markdown", director_role=director_role, slash=hints.slash_form
    )
    texts: list[str] = []
    embeds: list[discord.Embed] = []
    for part in as_text(reply.parts):
        if isinstance(part, Msg):
            texts.append(renderer.message(part))
        else:
            embeds.extend(table_embeds(renderer.table(part)))
    buttons = tuple((renderer.plain(b.label)[:80], b.command) for b in reply.buttons)
    users = tuple(int(u) for u in mentions.pinged(reply) if u.isdigit())
    role = director_role if director_role and director_role.isdigit() else None
    roles = (int(role),) if role and mentions.calls_directors(reply) else ()
    contents = tuple(split("\n".join(texts)))
    return Outgoing(contents, tuple(embeds), buttons, users, roles, shots=shots)


def table_embeds(table: str, limit: int = EMBED_DESCRIPTION_LIMIT) -> list[discord.Embed]:
    """Return a rendered table as embeds, none over Discord's limits: a long table goes
    on in more embeds, each a whole code block repeating the header line, so no row is
    cut off (64 players' schedule is some 19,000 characters)."""
    title, _, rest = table.partition("\n")
    if not rest.startswith("```"):
        return [_embed(None, chunk) for chunk in split(table, limit)]
    fence, _, code = rest.partition("\n")
    closing = code.rfind("```")
    body, notes = code[:closing].rstrip("\n"), code[closing + 3 :].strip("\n")
    header, *rows = body.split("\n")
    room = limit - len(fence) - len(header) - len("\n\n\n```")
    descriptions = [
        f"{fence}\n{header}\n{chunk}\n```" if chunk else f"{fence}\n{header}\n```"
        for chunk in (split("\n".join(rows), room) or [""])
    ]
    if notes:
        last = f"{descriptions[-1]}\n{notes}"
        if len(last) <= limit:
            descriptions[-1] = last
        else:
            descriptions += split(notes, limit)
    return [
        _embed(title[:EMBED_TITLE_LIMIT] if i == 0 else None, text)
        for i, text in enumerate(descriptions)
    ]


def _embed(title: str | None, description: str) -> discord.Embed:
    return discord.Embed(title=title, description=description, colour=EMBED_COLOUR)


def _embed_text(embed: discord.Embed) -> int:
    return len(embed.title or "") + len(embed.description or "")


def _batches(embeds: list[discord.Embed]) -> list[list[discord.Embed]]:
    """Group embeds into messages: at most 10 each, and 6,000 characters of text."""
    out: list[list[discord.Embed]] = []
    for embed in embeds:
        if (
            out
            and len(out[-1]) < EMBEDS_PER_MESSAGE
            and sum(map(_embed_text, out[-1])) + _embed_text(embed) <= MESSAGE_EMBED_TEXT
        ):
            out[-1].append(embed)
        else:
            out.append([embed])
    return out


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
