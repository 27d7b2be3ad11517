"""Discord messages with their pictures drawn: what each message carries, and its twin.

`prepare` turns a rendered reply into the messages to send, in order: its text (with
the table embeds), then its pictures, up to ten a message, each an embed that shows
the uploaded PNG (`attachment://NAME.png`) under its caption. Pictures are drawn off
the event loop. A picture message keeps its text twin: when Discord refuses the upload
(too large, no right to attach files) or the drawing fails, the twin goes instead.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Callable
from dataclasses import dataclass, field

import discord
from discord.utils import MISSING

from bot import pictures
from bot.discord_adapter.rendering import EMBED_COLOUR, Outgoing, Shot
from bot.pictures import Drawn
from commands.rendering import escape
from commands.replies import Picture

log = logging.getLogger("clubtd.discord.send")

PICTURES_PER_MESSAGE = 10  # each picture is one embed (10 a message) and one file
TITLE_LIMIT = 256
DESCRIPTION_LIMIT = 4096
CANNOT_DM = 50007
ALT_LIMIT = 1024  # characters of an attachment's description (its alt text)

Draw = Callable[[Picture, str, str], Drawn]


@dataclass(frozen=True, slots=True)
class Post:
    """One Discord message: content, embeds, files as bytes; its text twin if it has files."""

    content: str | None
    embeds: list[discord.Embed]
    files: tuple[tuple[str, bytes], ...] = ()  # (file name, PNG)
    fallback: tuple[Post, ...] = field(default=())
    alts: tuple[str, ...] = ()  # each file's alt text (what a screen reader says)

    def attachments(self) -> list[discord.File]:
        """Fresh files for one request (discord.py reads each File once), with alt text."""
        alts = self.alts + ("",) * (len(self.files) - len(self.alts))
        return [
            discord.File(io.BytesIO(png), filename=name, description=alt[:ALT_LIMIT] or None)
            for (name, png), alt in zip(self.files, alts, strict=True)
        ]

    def uploads(self) -> list[discord.File]:
        """The files for a send call: none given (MISSING) when the message has none."""
        return self.attachments() if self.files else MISSING


ACK = Post("\u2705", [])
CONTENT_LIMIT = 2000
EMBEDS_PER_MESSAGE = 10


def updated(message: discord.Message, answer: Post, presser: str) -> Post:
    """Return a pressed button's message updated with what the press did and by whom:
    its text, then `**presser** ▸ the answer`; its embeds, then the answer's."""
    said = f"**{escape(presser, 'markdown')}** \u25b8 {answer.content or ''}".rstrip()
    old = message.content or ""
    content = f"{old}\n{said}" if old else said
    if len(content) > CONTENT_LIMIT:
        content = said[:CONTENT_LIMIT]
    embeds = [*message.embeds, *answer.embeds][-EMBEDS_PER_MESSAGE:]
    return Post(content, embeds)  # an answer must say something: a tick when a reply is empty


def text_posts(outgoing: Outgoing) -> list[Post]:
    """Return the text messages of a reply (its pictures aside)."""
    return [Post(content, embeds) for content, embeds in outgoing.messages()]


async def prepare(outgoing: Outgoing, draw: Draw = pictures.render) -> list[Post]:
    """Return the messages of a reply, its pictures drawn (in a worker thread)."""
    posts = text_posts(outgoing)
    shots = list(outgoing.shots)
    for start in range(0, len(shots), PICTURES_PER_MESSAGE):
        batch = shots[start : start + PICTURES_PER_MESSAGE]
        twin = text_posts(_twin(batch))
        try:
            drawn = [
                await asyncio.to_thread(draw, shot.picture, shot.language, shot.timezone)
                for shot in batch
            ]
        except Exception:  # a drawing bug must not lose the message: its text goes
            log.exception("could not draw %s: sending the text", [s.picture.name for s in batch])
            posts += twin
            continue
        posts.append(picture_post(drawn, twin))
    return _with_words(posts)


def _with_words(posts: list[Post]) -> list[Post]:
    """Say a short text and the pictures after it in one message (the text over the
    pictures' embeds), as a person would post them: one post, not two."""
    if len(posts) != 2:
        return posts
    text, shown = posts
    if text.files or text.embeds or not shown.files or not text.content:
        return posts
    twin = (text, *shown.fallback)
    if len(shown.fallback) == 1 and not shown.fallback[0].content:
        twin = (Post(text.content, shown.fallback[0].embeds),)  # one message as well
    return [Post(text.content, shown.embeds, shown.files, twin, shown.alts)]


def picture_post(drawn: list[Drawn], twin: list[Post]) -> Post:
    """Return one message showing drawn pictures, each in an embed over its caption."""
    embeds: list[discord.Embed] = []
    files: list[tuple[str, bytes]] = []
    names: set[str] = set()
    for picture in drawn:
        name = _unique(picture.filename, names)
        caption = picture.caption
        embed = discord.Embed(
            title=caption if len(caption) <= TITLE_LIMIT else None,
            description=caption[:DESCRIPTION_LIMIT] if len(caption) > TITLE_LIMIT else None,
            colour=EMBED_COLOUR,
        )
        embed.set_image(url=f"attachment://{name}")
        embeds.append(embed)
        files.append((name, picture.png))
    return Post(None, embeds, tuple(files), tuple(twin), tuple(_alt(p, twin) for p in drawn))


def _alt(picture: Drawn, twin: list[Post]) -> str:
    """A picture's alt text: its caption, then the first lines of its text twin."""
    lines = [picture.caption]
    for post in twin:
        for embed in post.embeds:
            lines += [line for line in (embed.description or "").splitlines() if "```" not in line]
        lines += (post.content or "").splitlines()
    return "\n".join(line for line in lines if line.strip())[:ALT_LIMIT]


def refuses_file(error: discord.HTTPException) -> bool:
    """Whether Discord refused what a message carries rather than where it goes: a file
    too large (413/40005), no right to attach files (403/50013), a bad upload (400).
    Not a gone message or interaction (404), a rate limit, a server error or closed DMs."""
    return 400 <= error.status < 500 and error.status not in (404, 429) and error.code != CANNOT_DM


def _twin(shots: list[Shot]) -> Outgoing:
    """Return the text twins of pictures as one reply (their tables as embeds)."""
    contents = tuple(c for shot in shots for c in shot.fallback.contents)
    embeds = tuple(e for shot in shots for e in shot.fallback.embeds)
    return Outgoing(contents, embeds, ())


def _unique(name: str, taken: set[str]) -> str:
    stem, dot, ext = name.rpartition(".")
    candidate, n = name, 1
    while candidate in taken:
        n += 1
        candidate = f"{stem}-{n}{dot}{ext}" if dot else f"{name}-{n}"
    taken.add(candidate)
    return candidate
