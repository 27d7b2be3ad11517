"""The knockout drawn as a bracket: rounds left to right, each match fed by lines.

Layout only: a match's height is the middle of what feeds it; a match nothing feeds
(or a side that came straight in, a bye) takes one slot of the first column. So a
play-in round widens only the part of the bracket it feeds, and any shape the core
builds (play-ins, byes, third place, a consolation bracket) is drawn the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from bot.pictures.canvas import (
    BAND,
    INK,
    LINE,
    MARGIN,
    MIN_FONT,
    MUTED,
    NEXT,
    NEXT_BAR,
    PAPER,
    WIDTH,
    WIN,
    Canvas,
    badge_width,
    font,
    width_of,
)
from commands.pictures import BracketMatchView, BracketSection, BracketView, Side
from commands.replies import Msg, Param, msg

Text = Callable[[Msg], str]
Value = Callable[[Param], str]

GAP = 26  # between columns, where the lines run
COLUMN_MIN = 170
CAPTION = 20
_HEAD = 84  # a section's title and round labels
_TITLE = 40  # the section title's part of that


@dataclass
class _Layout:
    """Where one section's boxes go, in slot units from the section's top."""

    columns: int
    y: dict[str, float] = field(default_factory=dict)  # key -> centre, in slots
    byes: list[tuple[str, bool, float]] = field(default_factory=list)  # key, white, slot
    slots: float = 0.0


def _layout(section: BracketSection) -> _Layout:
    by_key = {m.key: m for m in section.matches}
    fed = {k for m in section.matches for k in (m.white_from, m.black_from) if k}
    roots = [m for m in section.matches if m.key not in fed]
    layout = _Layout(columns=len(section.rounds))

    def place(match: BracketMatchView) -> float:
        sides = []
        feeders = [by_key.get(k) if k else None for k in (match.white_from, match.black_from)]
        if not any(feeders):
            centre = layout.slots + 0.5
            layout.slots += 1
            layout.y[match.key] = centre
            return centre
        for white, feeder in zip((True, False), feeders, strict=True):
            if feeder is not None:
                sides.append(place(feeder))
            else:
                centre = layout.slots + 0.5
                layout.slots += 1
                layout.byes.append((match.key, white, centre))
                sides.append(centre)
        layout.y[match.key] = sum(sides) / len(sides)
        return layout.y[match.key]

    for root in sorted(roots, key=lambda m: (-m.round, m.number)):
        place(root)
    return layout


@dataclass(frozen=True, slots=True)
class _Geometry:
    column: float
    size: int  # name font
    line: int  # one side's height
    slot: int

    @property
    def box(self) -> int:
        return 2 * self.line


def _geometry(columns: int) -> tuple[int, _Geometry]:
    width = max(WIDTH, 2 * MARGIN + columns * COLUMN_MIN + (columns - 1) * GAP)
    column = (width - 2 * MARGIN - (columns - 1) * GAP) / max(columns, 1)
    size = max(MIN_FONT, min(24, int(column / 10)))
    line = size + 12
    return width, _Geometry(column, size, line, CAPTION + 2 * line + 14)


def draw_bracket(view: BracketView, text: Text, value: Value) -> Canvas:
    """Draw every section of the bracket, one under the other, under a title band."""
    columns = max(len(s.rounds) for s in view.sections)
    width, geometry = _geometry(columns)
    layouts = [_layout(s) for s in view.sections]
    heights = [
        _section_height(s, lay, geometry) for s, lay in zip(view.sections, layouts, strict=True)
    ]
    legend = [text(line) for line in view.legend]
    # A lone main bracket needs no heading of its own: the title band says it.
    titled = len(view.sections) > 1
    skipped = 0 if titled else _TITLE
    total = 70 + sum(heights) - skipped + 30 * len(legend) + 24
    canvas = Canvas(width, int(total))
    canvas.title_band(text(view.title), "")
    top = 70.0 - skipped
    for section, layout, height in zip(view.sections, layouts, heights, strict=True):
        _draw_section(canvas, section, layout, geometry, top, text, value, titled=titled)
        top += height
    for line in legend:
        canvas.text((MARGIN, top + 12), line, MIN_FONT, fill=MUTED, room=width - 2 * MARGIN)
        top += 30
    return canvas


def _section_height(section: BracketSection, layout: _Layout, g: _Geometry) -> float:
    body = layout.slots * g.slot - (g.slot - g.box - CAPTION) / 2
    finals = [m for m in section.matches if m.key in layout.y and _is_last(section, m)]
    if finals:
        bottom = layout.y[finals[0].key] * g.slot + g.box / 2 + CAPTION / 2 + 16
        if _champion(finals[0]) is not None:
            bottom += 50
        if section.third_place is not None:
            bottom += 30 + CAPTION + g.box
        body = max(body, bottom)
    return _HEAD + body + 24


def _is_last(section: BracketSection, match: BracketMatchView) -> bool:
    return match.round - section.first_round == len(section.rounds) - 1


def _champion(final: BracketMatchView) -> Param | None:
    return next((s.player for s in (final.white, final.black) if s.won and s.player), None)


def _x(column: int, g: _Geometry) -> float:
    return MARGIN + column * (g.column + GAP)


def _draw_section(
    canvas: Canvas,
    section: BracketSection,
    layout: _Layout,
    g: _Geometry,
    top: float,
    text: Text,
    value: Value,
    *,
    titled: bool,
) -> None:
    if titled:
        canvas.text(
            (MARGIN, top + 28), text(section.title), 26, bold=True, room=canvas.width - 2 * MARGIN
        )
    for column, label in enumerate(section.rounds):
        canvas.text(
            (_x(column, g), top + 64), text(label), MIN_FONT, bold=True, fill=MUTED, room=g.column
        )
    # The first slot's box sits just under the round labels.
    origin = top + _HEAD + g.box / 2 + CAPTION / 2 + 4 - g.slot / 2
    by_key = {m.key: m for m in section.matches}

    def box_top(match: BracketMatchView) -> float:
        return origin + layout.y[match.key] * g.slot - g.box / 2 + CAPTION / 2

    def side_y(match: BracketMatchView, white: bool) -> float:
        return box_top(match) + (g.line / 2 if white else g.line * 1.5)

    # Lines first, so boxes sit on top of them.
    for match in section.matches:
        column = match.round - section.first_round
        left = _x(column, g)
        for white, source in ((True, match.white_from), (False, match.black_from)):
            feeder = by_key.get(source) if source else None
            if feeder is None:
                continue
            start_x = _x(feeder.round - section.first_round, g) + g.column
            start_y = box_top(feeder) + g.line
            end_y = side_y(match, white)
            middle = left - GAP / 2
            colour = WIN if _winner_known(feeder) else LINE
            canvas.draw.line(
                [(start_x, start_y), (middle, start_y), (middle, end_y), (left, end_y)],
                fill=colour,
                width=2,
            )
    for key, white, _slot in layout.byes:
        match = by_key[key]
        column = match.round - section.first_round
        y = side_y(match, white)
        bye_x = _x(column - 1, g) if column > 0 else MARGIN
        bye = text(msg("picture.bye"))
        canvas.text((bye_x + 8, y), bye, MIN_FONT, fill=MUTED, room=g.column - 16)
        canvas.draw.line(
            (bye_x + 16 + width_of(bye, font(MIN_FONT)), y, _x(column, g), y),
            fill=LINE,
            width=1,
        )
    for match in section.matches:
        _draw_match(
            canvas, match, _x(match.round - section.first_round, g), box_top(match), g, text, value
        )
    last_column = len(section.rounds) - 1
    finals = [m for m in section.matches if _is_last(section, m)]
    if finals:
        final = finals[0]
        below = box_top(final) + g.box + 16
        champion = _champion(final)
        if champion is not None:
            x = _x(last_column, g)
            canvas.text(
                (x, below + 10),
                text(msg("picture.champion")),
                MIN_FONT,
                bold=True,
                fill=WIN,
                room=g.column,
            )
            canvas.text(
                (x, below + 34),
                value(champion),
                g.size + 2,
                bold=True,
                fill=WIN,
                room=g.column,
                name=True,
            )
            below += 50
        if section.third_place is not None:
            canvas.text(
                (_x(last_column, g), below + 14),
                text(msg("round.third_place")),
                MIN_FONT,
                bold=True,
                fill=MUTED,
                room=g.column,
            )
            _draw_match(
                canvas,
                section.third_place,
                _x(last_column, g),
                below + 30 + CAPTION,
                g,
                text,
                value,
            )


def _winner_known(match: BracketMatchView) -> bool:
    return match.white.won or match.black.won


def _draw_match(
    canvas: Canvas,
    match: BracketMatchView,
    x: float,
    y: float,
    g: _Geometry,
    text: Text,
    value: Value,
) -> None:
    caption = str(match.number) if match.note is None else f"{match.number} · {text(match.note)}"
    canvas.text(
        (x + 2, y - CAPTION / 2 - 2),
        caption,
        MIN_FONT,
        bold=match.state == "next",
        fill=NEXT_BAR if match.state == "next" else MUTED,
        room=g.column - 4,
    )
    fill = {"done": PAPER, "next": NEXT, "waiting": BAND}[match.state]
    outline = NEXT_BAR if match.state == "next" else LINE
    canvas.draw.rectangle(
        (x, y, x + g.column, y + g.box),
        fill=fill,
        outline=outline,
        width=2 if match.state == "next" else 1,
    )
    canvas.draw.line((x + 1, y + g.line, x + g.column - 1, y + g.line), fill=LINE)
    for index, side in enumerate((match.white, match.black)):
        _draw_side(canvas, side, match.state == "done", x, y + g.line * index, g, text, value)


def _draw_side(
    canvas: Canvas,
    side: Side,
    decided: bool,
    x: float,
    y: float,
    g: _Geometry,
    text: Text,
    value: Value,
) -> None:
    middle = y + g.line / 2
    right = x + g.column - 8
    if side.score is not None:
        score_width = canvas.text(
            (right, middle),
            str(side.score),
            g.size,
            bold=side.won,
            fill=MUTED if decided and not side.won else INK,
            anchor="rm",
        )
        right -= score_width + 8
    if side.lot:
        label = text(msg("picture.lot"))
        right -= badge_width(label, MIN_FONT)
        canvas.badge(right, middle, label, "lot", MIN_FONT)
        right -= 6
    if side.won:
        canvas.draw.rectangle((x + 1, y + 1, x + 5, y + g.line - 1), fill=WIN)
    if side.player is not None:
        canvas.text(
            (x + 10, middle),
            value(side.player),
            g.size,
            bold=side.won,
            fill=MUTED if decided and not side.won else INK,
            room=right - x - 14,
            name=True,
        )
    else:
        label = text(side.feed) if side.feed is not None else text(msg("word.to_be_decided"))
        canvas.text(
            (x + 10, middle), label, max(MIN_FONT, g.size - 3), fill=MUTED, room=right - x - 14
        )
