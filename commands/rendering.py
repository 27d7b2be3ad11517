"""Render replies for a target format: plain text, Telegram HTML, Discord markdown.

Catalog templates are plain text; everything, template and parameters, is escaped for
the format, so a name like `<b>x</b> @everyone` shows as typed and pings nobody.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from datetime import datetime
from typing import Literal
from zoneinfo import ZoneInfo

from commands.catalog import template
from commands.names import shorten
from commands.replies import Msg, Name, Param, Picture, Reply, Table, When

Format = Literal["plain", "html", "markdown"]
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_~|>\[\]()#-])")
_ZERO_WIDTH_SPACE = "\u200b"


@dataclass(frozen=True, slots=True)
class Rendered:
    text: str
    buttons: tuple[tuple[str, str], ...]  # (label, command)
    tables: tuple[str, ...]  # each table alone, monospaced, for adapters that split


def escape(text: str, fmt: Format) -> str:
    """Escape user text for the format and defuse mass mentions."""
    text = text.replace("@everyone", "@" + _ZERO_WIDTH_SPACE + "everyone")
    text = text.replace("@here", "@" + _ZERO_WIDTH_SPACE + "here")
    if fmt == "html":
        return html.escape(text, quote=False)
    if fmt == "markdown":
        return _MARKDOWN_SPECIAL.sub(r"\\\1", text)
    return text


class Renderer:
    """Render catalog messages for one club's language, time zone and a format."""

    def __init__(self, language: str, timezone: str, fmt: Format) -> None:
        self.language = language
        self.zone = ZoneInfo(timezone)
        self.fmt = fmt

    def reply(self, reply: Reply) -> Rendered:
        """Render a reply as text; a picture shows as its text twin."""
        blocks: list[str] = []
        tables: list[str] = []
        parts = [
            shown
            for part in reply.parts
            for shown in (part.fallback if isinstance(part, Picture) else (part,))
        ]
        for part in parts:
            if isinstance(part, Msg):
                blocks.append(self.message(part))
            else:
                table = self.table(part)
                tables.append(table)
                blocks.append(table)
        buttons = tuple((self.plain(b.label), b.command) for b in reply.buttons)
        return Rendered("\n".join(blocks), buttons, tuple(tables))

    def message(self, message: Msg) -> str:
        """Render one message, escaped for the format."""
        raw = template(self.language, message.key)
        literal = escape(raw, self.fmt) if self.fmt != "markdown" else raw
        params = {k: self.param(v) for k, v in message.params.items()}
        try:
            return literal.format_map(params)
        except (KeyError, IndexError, ValueError):
            return literal

    def plain(self, message: Msg) -> str:
        """Render a message without markup (button labels, table cells)."""
        return Renderer._with(self, "plain").message(message)

    def param(self, value: Param) -> str:
        if isinstance(value, Name):
            return escape(value.text, self.fmt)
        if isinstance(value, When):
            return self.when(value.at, value.style)
        if isinstance(value, Msg):
            return self.message(value)
        if isinstance(value, float):
            return f"{value:.2f}"
        return escape(str(value), self.fmt)

    def when(self, at: datetime, style: str = "time") -> str:
        local = at.astimezone(self.zone)
        if style == "date":
            return local.strftime("%Y-%m-%d")
        if style == "datetime":
            return local.strftime("%Y-%m-%d %H:%M")
        return local.strftime("%H:%M")

    def table(self, table: Table) -> str:
        """Render a table as aligned monospaced text (a <pre> block in HTML)."""
        plain = Renderer._with(self, "plain")
        header = [plain.message(h) for h in table.header]
        # A cell is one line of at most CELL_WIDTH characters: a long stored name must
        # not widen every row of the table (names from before the 64-character limit).
        rows = [
            [shorten(" ".join(plain.param(v).split()), CELL_WIDTH) for v in row]
            for row in table.rows
        ]
        widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
        lines = [
            "  ".join(
                cell.rjust(width) if _numeric(cell) else cell.ljust(width)
                for cell, width in zip(row, widths, strict=True)
            ).rstrip()
            for row in [header, *rows]
        ]
        body = "\n".join(lines)
        title = self.message(table.title)
        notes = "\n".join(self.message(n) for n in table.notes)
        if self.fmt == "html":
            block = f"<pre>{escape(body, 'html')}</pre>"
        elif self.fmt == "markdown":
            block = "```\n" + body.replace("```", "'''") + "\n```"
        else:
            block = body
        return "\n".join(part for part in (title, block, notes) if part)

    @staticmethod
    def _with(renderer: Renderer, fmt: Format) -> Renderer:
        other = Renderer.__new__(Renderer)
        other.language, other.zone, other.fmt = renderer.language, renderer.zone, fmt
        return other


CELL_WIDTH = 24


def _numeric(cell: str) -> bool:
    return bool(cell) and cell.replace(".", "", 1).replace("-", "", 1).isdigit()
