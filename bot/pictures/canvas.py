"""Pixels shared by every picture: the bundled font, colours, text that fits its box.

Light theme, high contrast, sized for a phone: pictures are WIDTH pixels wide and no
text is smaller than MIN_FONT. The font (DejaVu Sans Condensed, libre, in `fonts/`)
ships with the package, so a fresh machine with no system fonts draws the same
picture; it covers Spanish, Romanian and Polish letters. Text is laid out with
FreeType's basic engine, not raqm, so the same input gives the same pixels everywhere.
"""

from __future__ import annotations

import io
import struct
import unicodedata
import zlib
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

from PIL import Image, ImageDraw, ImageFont

WIDTH = 1000
MIN_FONT = 16
MARGIN = 28

INK = (17, 24, 39)  # text
MUTED = (88, 96, 110)  # secondary text: feeds, notes, losers
FAINT = (160, 166, 176)
LINE = (196, 201, 209)
PAPER = (255, 255, 255)
BAND = (244, 246, 249)  # zebra rows, empty boxes
HEADER = (30, 58, 95)  # title band
ON_HEADER = (255, 255, 255)
QUALIFIED = (223, 243, 228)
QUALIFIED_BAR = (27, 124, 58)
NEXT = (226, 236, 253)
NEXT_BAR = (21, 101, 192)
WIN = (27, 124, 58)
BADGE_COLOURS: dict[str, tuple[int, int, int]] = {
    "forfeit": (183, 28, 28),
    "penalty": (191, 84, 0),
    "withdrawn": (97, 97, 97),
    "no_show": (106, 27, 154),
    "removed": (97, 97, 97),
    "lot": (121, 85, 72),
    "bye": (120, 126, 136),
}

_FONTS = {False: "DejaVuSansCondensed.ttf", True: "DejaVuSansCondensed-Bold.ttf"}
ELLIPSIS = "…"


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Return the bundled font at `size` pixels (Pillow's scalable default if missing)."""
    size = max(size, MIN_FONT)
    try:
        data = resources.files("bot.pictures").joinpath("fonts", _FONTS[bold]).read_bytes()
    except (FileNotFoundError, OSError):
        return ImageFont.load_default(size=size)
    return ImageFont.truetype(io.BytesIO(data), size, layout_engine=ImageFont.Layout.BASIC)


Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


def width_of(text: str, face: Font) -> float:
    return float(face.getlength(text))


def clean(text: str) -> str:
    """Return text as drawn: composed letters (ș, not s + comma), one line."""
    return unicodedata.normalize("NFC", " ".join(text.split()))


@dataclass
class Metrics:
    """What a drawing did, for tests: the smallest font used, the texts shortened and
    every line drawn."""

    smallest: int = 10_000
    shortened: list[tuple[str, str]] = field(default_factory=list)
    drawn: list[str] = field(default_factory=list)


def fit(
    text: str, face: Font, room: float, metrics: Metrics | None = None, *, name: bool = True
) -> str:
    """Return `text` shortened to fit `room` pixels: "Ana Popescu" -> "Ana P." -> "An…".

    Only a name is cut to initials; other text just ends in an ellipsis.
    """
    text = clean(text)
    if width_of(text, face) <= room:
        return text
    words = text.split(" ")
    candidates = []
    if name and len(words) > 1:
        # Keep the first name whole and the rest as initials: how a club says it.
        candidates.append(" ".join([words[0], *(w[0] + "." for w in words[1:] if w)]))
        candidates.append(words[0] + " " + words[-1][0] + ".")
    for candidate in candidates:
        if width_of(candidate, face) <= room:
            if metrics is not None:
                metrics.shortened.append((text, candidate))
            return candidate
    base = candidates[-1] if candidates else text
    low, high = 0, len(base)
    while low < high:  # the longest prefix that fits with its ellipsis
        middle = (low + high + 1) // 2
        if width_of(base[:middle].rstrip() + ELLIPSIS, face) <= room:
            low = middle
        else:
            high = middle - 1
    shown = base[:low].rstrip() + ELLIPSIS if low else ELLIPSIS
    if metrics is not None:
        metrics.shortened.append((text, shown))
    return shown


def wrap(text: str, face: Font, room: float) -> list[str]:
    """Return `text` broken into lines of at most `room` pixels, at spaces."""
    lines: list[str] = []
    current = ""
    for word in clean(text).split(" "):
        candidate = f"{current} {word}" if current else word
        if current and width_of(candidate, face) > room:
            lines.append(current)
            current = word
        else:
            current = candidate
    if current:
        lines.append(current)
    return [fit(line, face, room, name=False) for line in lines]


class Canvas:
    """An image being drawn, with text helpers that record their metrics."""

    def __init__(self, width: int, height: int) -> None:
        self.image = Image.new("RGB", (width, height), PAPER)
        self.draw = ImageDraw.Draw(self.image)
        self.metrics = Metrics()

    @property
    def width(self) -> int:
        return self.image.width

    def text(
        self,
        xy: tuple[float, float],
        text: str,
        size: int,
        *,
        bold: bool = False,
        fill: tuple[int, int, int] = INK,
        room: float | None = None,
        anchor: str = "lm",
        name: bool = False,
    ) -> float:
        """Draw one line (shortened to `room`, a `name` to initials); return its width."""
        face = font(size, bold)
        shown = fit(text, face, room, self.metrics, name=name) if room is not None else clean(text)
        self.metrics.smallest = min(self.metrics.smallest, max(size, MIN_FONT))
        self.metrics.drawn.append(shown)
        self.draw.text(xy, shown, font=face, fill=fill, anchor=anchor)
        return width_of(shown, face)

    def badge(self, x: float, y: float, label: str, kind: str, size: int) -> float:
        """Draw a small coloured tag centred on `y` from `x`; return its width."""
        face = font(size, True)
        text_width = width_of(label, face)
        pad = size * 0.35
        height = size * 1.3
        colour = BADGE_COLOURS.get(kind, MUTED)
        self.draw.rounded_rectangle(
            (x, y - height / 2, x + text_width + 2 * pad, y + height / 2),
            radius=int(height / 3),
            fill=colour,
        )
        self.draw.text((x + pad, y), label, font=face, fill=PAPER, anchor="lm")
        self.metrics.drawn.append(label)
        self.metrics.smallest = min(self.metrics.smallest, max(size, MIN_FONT))
        return text_width + 2 * pad

    def title_band(self, title: str, subtitle: str) -> int:
        """Draw the dark title band across the top; return its height."""
        height = 96 if subtitle else 70
        self.draw.rectangle((0, 0, self.width, height), fill=HEADER)
        self.text((MARGIN, 38), title, 32, bold=True, fill=ON_HEADER, room=self.width - 2 * MARGIN)
        if subtitle:
            self.text(
                (MARGIN, 76), subtitle, 20, fill=(214, 224, 238), room=self.width - 2 * MARGIN
            )
        return height

    def png(self) -> bytes:
        return png(self.image)


def png(image: Image.Image, level: int = 3) -> bytes:
    """Return an RGB image as PNG bytes, rows unfiltered.

    Pillow's encoder tries five row filters on every row, which costs several times the
    drawing itself on a tall bracket; mostly-white pictures compress about as well
    without filtering, so the rows go to zlib as they are.
    """
    width, height = image.size
    raw = memoryview((image if image.mode == "RGB" else image.convert("RGB")).tobytes())
    stride = width * 3
    # Each row goes to zlib behind its filter byte (0: none), a block of rows at a time:
    # small enough to stay in the cache, large enough that the calls cost nothing.
    block = stride * 128
    compressor = zlib.compressobj(level)
    parts = []
    for top in range(0, len(raw), block):
        rows = raw[top : top + block]
        framed = b"".join(b"\x00" + rows[i : i + stride] for i in range(0, len(rows), stride))
        parts.append(compressor.compress(framed))
    parts.append(compressor.flush())
    data = b"".join(parts)

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(kind + data)
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", data) + chunk(b"IEND", b"")
    )


def badge_width(label: str, size: int) -> float:
    return width_of(label, font(size, True)) + 2 * size * 0.35
