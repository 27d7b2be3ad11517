"""Group tables, a player's schedule card and the ranking, drawn as tables."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.pictures.canvas import (
    BAND,
    INK,
    LINE,
    MARGIN,
    MUTED,
    NEXT,
    NEXT_BAR,
    PAPER,
    QUALIFIED,
    QUALIFIED_BAR,
    WIDTH,
    WIN,
    Canvas,
    badge_width,
    font,
    width_of,
    wrap,
)
from commands.pictures import CardView, GroupView, RankingView
from commands.replies import Msg, Param

Text = Callable[[Msg], str]
Value = Callable[[Param], str]

ROW = 58
HEAD = 44
FONT = 26
SMALL = 18
Colour = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class Column:
    label: str
    width: float  # 0: takes what the others leave
    align: str = "r"  # "l" or "r"


@dataclass
class Row:
    cells: Sequence[str]
    fill: Colour | None = None
    bar: Colour | None = None
    bold: bool = False
    muted: bool = False
    struck: bool = False
    badges: Sequence[tuple[str, str]] = ()  # (label, kind) after the flexible cell
    colours: dict[int, Colour] | None = None
    names: bool = True  # the flexible cell holds a name (shortened to initials)
    piece: str | None = None  # "white" or "black": a checker before the flexible cell


def _widths(columns: Sequence[Column], width: float) -> list[float]:
    fixed = sum(c.width for c in columns)
    flexible = [c for c in columns if c.width == 0]
    share = (width - fixed) / max(len(flexible), 1)
    return [c.width or share for c in columns]


def _fitted(label: str, cells: Sequence[str], least: float, most: float, pad: float) -> float:
    """Return a column's width: its widest cell (bold, as the next match is drawn) or its
    label, padded, between `least` and `most` pixels."""
    widest = max(
        [width_of(label, font(SMALL, bold=True))]
        + [width_of(cell, font(FONT, bold=True)) for cell in cells]
    )
    return min(max(widest + pad, least), most)


def _notes_height(lines: Sequence[str], width: float) -> tuple[list[str], int]:
    face = font(SMALL)
    wrapped = [line for text in lines for line in wrap(text, face, width)]
    return wrapped, (len(wrapped) * 27 + 24 if wrapped else 0)


def draw_table(
    title: str,
    subtitle: str,
    columns: Sequence[Column],
    rows: Sequence[Row],
    notes: Sequence[str],
) -> Canvas:
    """Draw a titled table with zebra rows, highlighted rows, badges and notes."""
    inner = WIDTH - 2 * MARGIN
    widths = _widths(columns, inner)
    wrapped, notes_height = _notes_height(notes, inner)
    band = 96 if subtitle else 70
    height = band + 16 + HEAD + ROW * max(len(rows), 1) + notes_height + 20
    canvas = Canvas(WIDTH, height)
    canvas.title_band(title, subtitle)
    top = band + 16
    x: float = MARGIN
    for column, width in zip(columns, widths, strict=True):
        anchor = "rm" if column.align == "r" else "lm"
        at = x + width - 10 if column.align == "r" else x + 10
        canvas.text(
            (at, top + HEAD / 2),
            column.label,
            SMALL,
            bold=True,
            fill=MUTED,
            room=width - 12,
            anchor=anchor,
        )
        x += width
    canvas.draw.line((MARGIN, top + HEAD - 1, WIDTH - MARGIN, top + HEAD - 1), fill=INK, width=2)
    y = top + HEAD
    for index, row in enumerate(rows):
        fill = row.fill or (BAND if index % 2 else None)
        if fill is not None:
            canvas.draw.rectangle((MARGIN, y, WIDTH - MARGIN, y + ROW - 1), fill=fill)
        if row.bar is not None:
            canvas.draw.rectangle((MARGIN, y, MARGIN + 6, y + ROW - 1), fill=row.bar)
        x = MARGIN
        middle = y + ROW / 2
        for column_index, (column, width, cell) in enumerate(
            zip(columns, widths, row.cells, strict=True)
        ):
            colour = (row.colours or {}).get(column_index, MUTED if row.muted else INK)
            if column.align == "r":
                canvas.text(
                    (x + width - 10, middle),
                    cell,
                    FONT,
                    bold=row.bold,
                    fill=colour,
                    room=width - 14,
                    anchor="rm",
                )
            else:
                tags = list(row.badges) if column.width == 0 else []
                room = width - 20 - sum(badge_width(label, SMALL) + 8 for label, _ in tags)
                left = x + 12
                if row.piece is not None and column.width == 0:
                    # The colour the player has, as a checker: no words needed.
                    fill = INK if row.piece == "black" else PAPER
                    canvas.draw.ellipse(
                        (left, middle - 10, left + 20, middle + 10),
                        fill=fill,
                        outline=INK,
                        width=2,
                    )
                    left += 30
                    room -= 30
                drawn = canvas.text(
                    (left, middle),
                    cell,
                    FONT,
                    bold=row.bold,
                    fill=colour,
                    room=room,
                    anchor="lm",
                    name=row.names and column.width == 0,
                )
                if row.struck and column.width == 0:
                    canvas.draw.line((left, middle, left + drawn, middle), fill=colour, width=2)
                tag_x = left + drawn + 10
                for label, kind in tags:
                    tag_x += canvas.badge(tag_x, middle, label, kind, SMALL) + 8
            x += width
        canvas.draw.line((MARGIN, y + ROW - 1, WIDTH - MARGIN, y + ROW - 1), fill=LINE)
        y += ROW
    y += 18
    for line in wrapped:
        canvas.text((MARGIN, y + 12), line, SMALL, fill=MUTED)
        y += 27
    return canvas


def group_table(view: GroupView, text: Text, value: Value) -> Canvas:
    """Draw a group's standings: qualifiers green, markers as coloured tags."""
    rank, player, won_lost, points, difference = (text(h) for h in view.header)
    columns = [
        Column(rank, 70),
        Column(player, 0, "l"),
        Column(won_lost, 120),
        Column(points, 150),
        Column(difference, 110),
    ]
    rows = []
    for line in view.lines:
        diff = line.points_for - line.points_against
        rows.append(
            Row(
                cells=(
                    str(line.rank),
                    value(line.player),
                    f"{line.won}–{line.lost}",
                    f"{line.points_for}–{line.points_against}",
                    f"+{diff}" if diff > 0 else "±0" if diff == 0 else f"−{-diff}",
                ),
                fill=QUALIFIED if line.qualified else None,
                bar=QUALIFIED_BAR if line.qualified else None,
                bold=line.qualified,
                muted=line.out,
                struck=line.out,
                badges=tuple((text(b.label), b.kind) for b in line.badges),
            )
        )
    notes = [text(n) for n in view.legend] + [text(n) for n in view.notes]
    return draw_table(text(view.title), text(view.subtitle), columns, rows, notes)


def card(view: CardView, text: Text, value: Value) -> Canvas:
    """Draw a player's matches: the next one highlighted, results in green or grey."""
    number, round_, time, opponent, score, status = (text(h) for h in view.header)
    rounds = [text(line.round) for line in view.lines]
    scores = [line.score for line in view.lines]
    statuses = [text(line.status) for line in view.lines]
    # Sized to what they hold ("2-2 (3-1)", "do rozegrania"), the opponent takes the rest.
    columns = [
        Column(number, 70),
        Column(round_, _fitted(round_, rounds, 120, 240, 24), "l"),
        Column(time, 100, "l"),
        Column(opponent, 0, "l"),
        Column(score, _fitted(score, scores, 110, 200, 26)),
        Column(status, _fitted(status, statuses, 170, 280, 26)),
    ]
    rows = [
        Row(
            cells=(
                str(line.number),
                text(line.round),
                value(line.start),
                value(line.opponent),
                line.score,
                text(line.status),
            ),
            fill=NEXT if line.state == "next" else None,
            bar=NEXT_BAR if line.state == "next" else None,
            bold=line.state == "next",
            muted=line.state == "waiting",
            piece=line.piece,
        )
        for line in view.lines
    ]
    # The checker before each opponent is the colour this player has: say so once.
    colours = (text(Msg("picture.legend.colours", {})),) if view.lines else ()
    return draw_table(text(view.title), text(view.subtitle), columns, rows, colours)


def ranking(view: RankingView, text: Text, value: Value) -> Canvas:
    """Draw a ranking: the podium bold, prize eligibility in green (a season's: the
    all-time table has no Prizes column)."""
    rank, player, points, played, *prizes = (text(h) for h in view.header)
    columns = [
        Column(rank, 70),
        Column(player, 0, "l"),
        Column(points, 140),
        Column(played, 130),
        *(Column(p, 130) for p in prizes),
    ]
    yes, no = text(Msg("word.yes", {})), text(Msg("word.no", {}))
    rows = [
        Row(
            cells=(
                str(line.rank),
                value(line.player),
                value(line.points),
                str(line.tournaments),
                *((yes if line.eligible else no,) if prizes else ()),
            ),
            bold=line.rank <= 3,
            colours={4: WIN if line.eligible else MUTED} if prizes else {},
        )
        for line in view.lines
    ]
    return draw_table(text(view.title), "", columns, rows, ())
