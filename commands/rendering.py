"""Render replies for a target format: plain text, Telegram HTML, Discord markdown.

Catalog templates are plain text; everything, template and parameters, is escaped for
the format, so a name like `<b>x</b> @everyone` shows as typed and pings nobody.

Numbers, dates and plurals follow the language's CLDR data (Babel): "2,30" in Spanish,
"sáb, 31 ene, 20:00", and a template chooses its words by plural category with ICU's
syntax, `{points, plural, one {# point} other {# points}}` (`#` is the number).
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import Literal
from zoneinfo import ZoneInfo

from babel import Locale
from babel.dates import format_skeleton
from babel.numbers import format_decimal

from commands.catalog import template
from commands.names import shorten
from commands.replies import Hint, Link, Mention, Msg, Name, Param, Reply, Table, When, as_text
from tournament import calendar

Format = Literal["plain", "html", "markdown"]
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_~|>\[\]()#-])")
_ZERO_WIDTH_SPACE = "\u200b"
# A link the bot made: a scheme, then no space, quote, angle bracket or backtick (Discord
# finds links before markdown, so a `-` or `_` inside one must stay as it is).
_SAFE_URL = re.compile(r"https?://[^\s<>\"'`]+")
_MENTION = re.compile(r"@(?=\w)")


@dataclass(frozen=True, slots=True)
class Rendered:
    text: str
    buttons: tuple[tuple[str, str], ...]  # (label, command)
    tables: tuple[str, ...]  # each table alone, monospaced, for adapters that split


_NAMED_THINGS = frozenset({"tournament", "other", "club"})


def _without_repeated_word(literal: str, key: str, value: str) -> str:
    """Drop the catalog's word before `{key}` when the value starts with it: "Turniej
    {tournament}" with "Turniej Marcowy" says "Turniej Marcowy", not "Turniej Turniej"."""
    first = value.split(" ", 1)[0].casefold()
    if key not in _NAMED_THINGS or not first or "{" + key + "}" not in literal:
        return literal  # a person's "De la Cruz" keeps the "de" before it

    def drop(match: re.Match[str]) -> str:
        return match.group(0) if match.group(1).casefold() != first else "{" + key + "}"

    return re.sub(r"(\w+) \{" + re.escape(key) + r"\}", drop, literal)


def escape(text: str, fmt: Format, *, ours: bool = False) -> str:
    """Escape user text for the format and defuse mentions: `@everyone`, `@here`, and a
    display name like `@someone` (Telegram links and notifies a user name anywhere in a
    message) show as typed and ping nobody. The catalog's own text (`ours`) keeps its
    `@wait 10m`, which a console user copies as it is."""
    if not ours:
        text = _MENTION.sub("@" + _ZERO_WIDTH_SPACE, text)
    if fmt == "html":
        return html.escape(text, quote=False)
    if fmt == "markdown":
        return _MARKDOWN_SPECIAL.sub(r"\\\1", text)
    return text


# A hint the catalog writes into a template, between backticks: `/resume {match}`.
_TEMPLATE_HINT = re.compile(r"`(/[^`\n]+)`")
_MARKDOWN_ESCAPED = re.compile(r"\\([\\`*_~|>\[\]()#-])")


class Renderer:
    """Render catalog messages for one club's language, time zone and a format."""

    def __init__(
        self,
        language: str,
        timezone: str,
        fmt: Format,
        *,
        director_role: str | None = None,
        slash: Callable[[str], str | None] | None = None,
    ) -> None:
        self.language = language
        self.zone = ZoneInfo(timezone)
        self.fmt = fmt
        self.director_role = director_role  # Discord: the role a call to directors pings
        self.slash = slash  # Discord: a typed command line in its slash-menu form

    def reply(self, reply: Reply) -> Rendered:
        """Render a reply as text; a picture shows as its text twin."""
        blocks: list[str] = []
        tables: list[str] = []
        for part in as_text(reply.parts):
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
        raw = choose_plurals(template(self.language, message.key), message.params, self.language)
        literal = escape(raw, self.fmt, ours=True) if self.fmt != "markdown" else raw
        params = {k: self.param(v) for k, v in message.params.items()}
        for key, value in params.items():
            literal = _without_repeated_word(literal, key, value)
            if value.endswith("."):
                # "Gina R." ends the sentence itself: no "Gina R.." from "{name}."
                literal = literal.replace("{" + key + "}.", "{" + key + "}")
        try:
            said = literal.format_map(params)
        except (KeyError, IndexError, ValueError):
            said = literal
        return _TEMPLATE_HINT.sub(lambda found: self._template_hint(found.group(1)), said)

    def _template_hint(self, shown: str) -> str:
        """A command the catalog marks `/like this` as a hint, rendered as one (the
        parameters in it are already escaped for the format)."""
        if self.fmt == "markdown":
            return self.hint(_MARKDOWN_ESCAPED.sub(r"\1", shown))
        if self.fmt == "html":
            return f"<code>{shown}</code>" if " " in shown.strip() else shown
        return shown

    def plain(self, message: Msg) -> str:
        """Render a message without markup (button labels, table cells)."""
        return Renderer._with(self, "plain").message(message)

    def param(self, value: Param) -> str:
        if isinstance(value, Name):
            return escape(value.text, self.fmt)
        if isinstance(value, When):
            return self.when(value.at, value.style)
        if isinstance(value, Link):
            if self.fmt == "markdown" and _SAFE_URL.fullmatch(value.url):
                return value.url
            return escape(value.url, self.fmt)
        if isinstance(value, Msg):
            return self.message(value)
        if isinstance(value, Mention):
            return self.mention(value)
        if isinstance(value, Hint):
            return self.hint(value.line)
        if isinstance(value, float):
            return format_decimal(value, format="0.00", locale=_locale(self.language))
        return escape(str(value), self.fmt)

    def hint(self, line: str) -> str:
        """Return a command to type as the platform types it: in Discord's slash form, else
        the text form; as code (one thing to type, copied whole) where it has words."""
        slash = self.slash(line) if self.slash is not None and self.fmt == "markdown" else None
        if slash is not None:
            return "`" + slash.replace("`", "'") + "`"
        if self.fmt == "html" and " " in line.strip():
            return f"<code>{escape(line, 'html')}</code>"  # a tap copies it whole
        return escape(line, self.fmt)

    def mention(self, mention: Mention) -> str:
        """Return a mention as the format pings it: `<@id>` in Discord markdown, a
        `tg://user` link in Telegram HTML; the name where nobody can be pinged."""
        users = [u for u in mention.users if u.isdigit()]
        if not mention.directors:
            shown = escape(mention.name, self.fmt)
            if not users or self.fmt == "plain":
                return shown
            if self.fmt == "markdown":
                return f"<@{users[0]}>"
            return f'<a href="tg://user?id={users[0]}">{shown}</a>'
        word = self.plain(Msg("mention.directors"))
        role = self.director_role if self.director_role and self.director_role.isdigit() else None
        if self.fmt == "markdown" and (users or role):
            return " ".join([f"<@&{role}>"] * bool(role) + [f"<@{u}>" for u in users])
        if self.fmt == "html" and len(users) == 1:
            return f'<a href="tg://user?id={users[0]}">{escape(word, "html")}</a>'
        if self.fmt == "html" and users:
            links = [f'<a href="tg://user?id={u}">{i}</a>' for i, u in enumerate(users, 1)]
            return f"{escape(word, 'html')} ({', '.join(links)})"
        return escape(word, self.fmt)

    def when(self, at: datetime, style: str = "time") -> str:
        """Return a moment in the club's time zone, as the language writes it."""
        local = calendar.local(at, self.zone)  # never overflows at the calendar's edge
        time = local.strftime("%H:%M")  # clubs everywhere post 24-hour times
        if style == "time":
            return time
        locale = _locale(self.language)
        if style == "month":
            # The form a date uses (Polish genitive: "Puchar Grudnia", of December).
            name = str(locale.months["format"]["wide"][local.month])
            return name[:1].upper() + name[1:]
        if style == "date":
            return format_skeleton("yMMMEd", local, locale=locale)
        day = format_skeleton("MMMEd", local, locale=locale)
        pattern = str(locale.datetime_formats["medium"])
        return pattern.replace("{1}", day).replace("{0}", time)

    def table(self, table: Table) -> str:
        """Render a table as aligned monospaced text (a <pre> block in HTML)."""
        plain = Renderer._with(self, "plain")
        header = [plain.message(h) for h in table.header]
        # A cell is one line of at most CELL_WIDTH characters: a long stored name must
        # not widen every row of the table (names from before the 64-character limit).
        # The bot's own words (a round "Ultima Șansă (Semifinală)") are never cut.
        rows = [
            [
                " ".join(plain.param(v).split())
                if isinstance(v, Msg)
                else shorten(" ".join(plain.param(v).split()), CELL_WIDTH)
                for v in row
            ]
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
        other.director_role, other.slash = renderer.director_role, renderer.slash
        return other


CELL_WIDTH = 24


def _numeric(cell: str) -> bool:
    # A shared place range ("5–8", PLACE-SHARE) aligns with the single places above it.
    bare = cell.replace(".", "", 1).replace(",", "", 1).replace("-", "", 1).replace("–", "", 1)
    return bool(cell) and bare.isdigit()


@cache
def _locale(language: str) -> Locale:
    return Locale.parse(language)


def plural_category(language: str, number: float) -> str:
    """Return the CLDR plural category of a number: "one", "few", "many", "other"..."""
    return str(_locale(language).plural_form(abs(number)))


@dataclass(frozen=True, slots=True)
class Plural:
    """One `{name, plural, one {...} other {...}}` block of a template."""

    start: int
    end: int
    name: str
    forms: dict[str, str]


_PLURAL = re.compile(r"\{(\w+),\s*plural,")


def plurals(raw: str) -> list[Plural]:
    """Return the plural blocks of a template; raise ValueError when one is malformed."""
    found: list[Plural] = []
    for head in _PLURAL.finditer(raw):
        if found and head.start() < found[-1].end:
            raise ValueError(f"nested plural in {raw!r}")
        forms: dict[str, str] = {}
        at = head.end()
        while True:
            while at < len(raw) and raw[at].isspace():
                at += 1
            if at >= len(raw):
                raise ValueError(f"unclosed plural in {raw!r}")
            if raw[at] == "}":
                break
            word = re.match(r"=?\w+", raw[at:])
            if word is None:
                raise ValueError(f"bad plural form at {raw[at:]!r}")
            at += word.end()
            while at < len(raw) and raw[at].isspace():
                at += 1
            if at >= len(raw) or raw[at] != "{":
                raise ValueError(f"plural form {word.group()} without text in {raw!r}")
            depth, begin = 0, at
            for at in range(begin, len(raw)):
                depth += {"{": 1, "}": -1}.get(raw[at], 0)
                if depth == 0:
                    break
            else:
                raise ValueError(f"unclosed plural text in {raw!r}")
            forms[word.group()] = raw[begin + 1 : at]
            at += 1
        if "other" not in forms:
            raise ValueError(f"plural without an 'other' form in {raw!r}")
        found.append(Plural(head.start(), at + 1, head.group(1), forms))
    return found


def choose_plurals(raw: str, params: Mapping[str, object], language: str) -> str:
    """Replace each plural block by the form its number asks for, `#` by the number."""
    if "plural," not in raw:
        return raw
    out: list[str] = []
    done = 0
    for block in plurals(raw):
        value = params.get(block.name)
        number = value if isinstance(value, int | float) and not isinstance(value, bool) else None
        form = block.forms["other"]
        if number is not None:
            exact = f"={number}"
            category = plural_category(language, number)
            form = block.forms.get(exact) or block.forms.get(category) or form
        out.append(raw[done : block.start])
        out.append(form.replace("#", "{" + block.name + "}"))
        done = block.end
    out.append(raw[done:])
    return "".join(out)
