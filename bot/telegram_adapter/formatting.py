"""Telegram HTML: split rendered replies under the message limit, lay out buttons.

The renderer escapes every user string, so the only markup in a reply is ours (a
`<pre>` per table). A long reply is split at line ends, never inside a tag or an
entity; a `<pre>` block cut in two is closed and reopened, with the table's header
line repeated, so each message stays valid HTML and each part reads on its own.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.pictures import separate
from bot.sending.parts import split_lines
from commands.rendering import Renderer
from commands.replies import Picture, Reply

MESSAGE_LIMIT = 4096  # characters after entity parsing; we count the raw HTML, to be safe
_ATOM = re.compile(r"<[^>]*>|&[#\w]+;|\s+|[^<&\s]+|[<&]")
_TAG = re.compile(r"<(/?)([a-zA-Z][\w-]*)[^>]*>")


@dataclass(frozen=True, slots=True)
class Photo:
    """A picture to send as a photo; drawn when sent, in the club's language."""

    picture: Picture
    language: str
    timezone: str
    fallback: tuple[str, ...]  # its text twin as HTML chunks, if the photo is refused


@dataclass(frozen=True, slots=True)
class Outgoing:
    """One reply, ready for Telegram: photos, then HTML chunks with the buttons last."""

    chunks: tuple[str, ...]
    buttons: tuple[tuple[str, str], ...]  # (label, command)
    photos: tuple[Photo, ...] = ()

    @property
    def empty(self) -> bool:
        return not self.chunks and not self.photos


def render(reply: Reply, language: str, timezone: str, *, pictures: bool = True) -> Outgoing:
    """Render a reply as Telegram HTML, split under the message limit; its pictures as
    photos (or, with `pictures` off, as their text twins)."""
    html_renderer = Renderer(language, timezone, "html")
    reply, shown = separate(reply, enabled=pictures)
    rendered = html_renderer.reply(reply)
    photos = tuple(
        Photo(
            picture,
            language,
            timezone,
            tuple(split_html(html_renderer.reply(Reply(picture.fallback)).text)),
        )
        for picture in shown
    )
    return Outgoing(tuple(split_html(rendered.text)), rendered.buttons, photos)


def render_plain(reply: Reply, language: str, timezone: str) -> Outgoing:
    """Render a reply without markup: the fallback when Telegram rejects our HTML."""
    rendered = Renderer(language, timezone, "plain").reply(reply)
    return Outgoing(tuple(split_plain(rendered.text)), rendered.buttons)


def length(text: str) -> int:
    """Return the length Telegram counts: UTF-16 code units."""
    return len(text.encode("utf-16-le")) // 2


@dataclass
class _Open:
    """A tag open at the current point, and (for <pre>) its first line, the header."""

    name: str
    opening: str
    header: str = ""
    header_done: bool = False


def split_html(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """Split HTML into messages of at most `limit`, each with balanced tags.

    Whatever the input: a part that cannot stay under the limit with its markup (a
    repeated table header, deeply nested tags) is sent as escaped plain text instead.
    """
    if length(text) <= limit:
        return [text] if text.strip() else []
    out: list[str] = []
    for chunk in _split_html(text, limit):
        out.extend([chunk] if length(chunk) <= limit else _hard_split(chunk, limit))
    return out


def _hard_split(chunk: str, limit: int) -> list[str]:
    """Cut a chunk's visible text into escaped pieces of at most `limit` (no markup)."""
    pieces: list[str] = []
    current: list[str] = []
    size = 0
    for char in html.unescape(_TAG.sub("", chunk)):
        escaped = html.escape(char, quote=False)
        width = length(escaped)
        if size + width > limit:
            pieces.append("".join(current))
            current, size = [], 0
        current.append(escaped)
        size += width
    pieces.append("".join(current))
    return [p for p in pieces if p.strip()]


def _split_html(text: str, limit: int) -> list[str]:
    chunks: list[str] = []
    stack: list[_Open] = []
    current = ""

    def closing() -> str:
        return "".join(f"</{tag.name}>" for tag in reversed(stack))

    def reopening() -> str:
        parts = []
        for tag in stack:
            parts.append(tag.opening)
            # A table's header is repeated only when it is short: a header as long as a
            # message would leave no room for the rows under it.
            short = length(tag.header) <= limit // 8
            if tag.name == "pre" and tag.header_done and tag.header.strip() and short:
                parts.append(tag.header + "\n")
        return "".join(parts)

    def flush() -> None:
        nonlocal current
        body = current + closing()
        if _visible(body).strip():
            chunks.append(body.strip("\n"))
        current = reopening()

    lines = text.split("\n")
    for index, line in enumerate(lines):
        piece = line if index == len(lines) - 1 else line + "\n"
        after = _advance([_copy(t) for t in stack], piece)
        if length(current + piece + _closing(after)) <= limit:
            current += piece
            stack[:] = after
            continue
        if _visible(current).strip() and current != reopening():
            flush()
            if length(current + piece + _closing(after)) <= limit:
                current += piece
                stack[:] = after
                continue
        # One line longer than a message: cut it between words (or anywhere in a word).
        for atom in _atoms(piece, limit // 4):
            after = _advance([_copy(t) for t in stack], atom)
            if length(current + atom + _closing(after)) > limit and _visible(current).strip():
                flush()
                after = _advance([_copy(t) for t in stack], atom)
            current += atom
            stack[:] = after
    if _visible(current).strip() and current != reopening():
        chunks.append((current + closing()).strip("\n"))
    return chunks


def split_plain(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """Split plain text at line ends (or spaces) into messages of at most `limit`."""
    return split_lines(text, limit, length)


def _copy(tag: _Open) -> _Open:
    return _Open(tag.name, tag.opening, tag.header, tag.header_done)


def _closing(stack: list[_Open]) -> str:
    return "".join(f"</{tag.name}>" for tag in reversed(stack))


def _advance(stack: list[_Open], piece: str) -> list[_Open]:
    """Return the open tags after `piece`, and the header lines of open <pre> blocks."""
    for atom in _ATOM.findall(piece):
        tag = _TAG.fullmatch(atom)
        if tag is not None:
            closing, name = tag.group(1), tag.group(2).lower()
            if closing:
                for at in range(len(stack) - 1, -1, -1):
                    if stack[at].name == name:
                        del stack[at:]
                        break
            else:
                stack.append(_Open(name, atom))
            continue
        for open_tag in stack:
            if open_tag.name == "pre" and not open_tag.header_done:
                if "\n" in atom:
                    open_tag.header += atom.split("\n", 1)[0]
                    open_tag.header_done = True
                else:
                    open_tag.header += atom
    return stack


def _atoms(piece: str, longest: int) -> list[str]:
    """Cut a line into tags, entities, words and spaces; cut over-long words too."""
    out: list[str] = []
    for atom in _ATOM.findall(piece):
        if atom.startswith(("<", "&")) or length(atom) <= longest:
            out.append(atom)
        else:
            out.extend(atom[i : i + longest] for i in range(0, len(atom), longest))
    return out


def _visible(html_text: str) -> str:
    return _TAG.sub("", html_text)


def keyboard(buttons: list[tuple[str, str]]) -> InlineKeyboardMarkup | None:
    """Lay out (label, callback data) buttons: a short pair on one row, else one a row."""
    if not buttons:
        return None
    labels = sum(len(label) for label, _ in buttons)
    if len(buttons) <= 2 and labels <= 30:
        rows = [[InlineKeyboardButton(label, callback_data=data) for label, data in buttons]]
    else:
        rows = [[InlineKeyboardButton(label, callback_data=data)] for label, data in buttons]
    return InlineKeyboardMarkup(rows)
