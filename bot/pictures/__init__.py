"""Pictures of group tables, brackets, schedule cards and rankings, as PNG bytes.

One renderer for every platform: an adapter only wraps the bytes in its upload call (a
Telegram photo, a Discord file, a file in the console's `--pictures` directory). Views
come from `commands.pictures`; labels are rendered in the club's language and time zone
through the message catalog. How an adapter shows a reply with pictures:

    text, shown = separate(reply, enabled=club.pictures)
    ...render `text` as usual (messages, tables)...
    for picture in shown:
        drawn = await asyncio.to_thread(render, picture, club.language, club.timezone)
        # Telegram: send_photo(chat, drawn.png, caption=drawn.caption, filename=...)
        # Discord:  discord.File(io.BytesIO(drawn.png), filename=drawn.filename), and an
        #           embed with set_image(url=f"attachment://{drawn.filename}")
    # If the platform refuses the picture, send Reply(picture.fallback) as text instead.

A live picture (an outbox row with a coalesce key, one per group and per bracket) is
edited in place: Telegram's editMessageMedia, Discord's message edit with new
attachments. An adapter that knows nothing of pictures still works: the shared text
renderer shows every picture as its text twin (`Picture.fallback`).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.pictures.bracket import draw_bracket
from bot.pictures.canvas import Canvas, Metrics
from bot.pictures.tables import card, group_table, ranking
from commands.pictures import BracketView, CardView, GroupView, PictureView, RankingView
from commands.rendering import Renderer
from commands.replies import Picture, Reply

CAPTION_LIMIT = 1024  # Telegram's caption limit; Discord's content limit is larger


@dataclass(frozen=True, slots=True)
class Drawn:
    """A picture ready to upload: PNG bytes, a file name, a plain-text caption."""

    png: bytes
    filename: str
    caption: str
    width: int
    height: int
    metrics: Metrics


def separate(reply: Reply, *, enabled: bool = True) -> tuple[Reply, tuple[Picture, ...]]:
    """Return the reply without its pictures, and the pictures to draw (none if off)."""
    if not enabled:
        return reply, ()
    shown = tuple(p for p in reply.parts if isinstance(p, Picture))
    if not shown:
        return reply, ()
    rest = tuple(p for p in reply.parts if not isinstance(p, Picture))
    return Reply(rest, reply.buttons, reply.private), shown


def draw(view: PictureView, language: str, timezone: str) -> Canvas:
    """Draw a view; return the canvas (its image, and metrics for tests)."""
    text = Renderer(language, timezone, "plain")
    if isinstance(view, GroupView):
        return group_table(view, text.message, text.param)
    if isinstance(view, BracketView):
        return draw_bracket(view, text.message, text.param)
    if isinstance(view, CardView):
        return card(view, text.message, text.param)
    if isinstance(view, RankingView):
        return ranking(view, text.message, text.param)
    raise TypeError(f"not a picture view: {type(view).__name__}")


def render(picture: Picture, language: str, timezone: str) -> Drawn:
    """Render a reply's picture part for any platform: bytes, file name and caption."""
    canvas = draw(picture.view, language, timezone)
    caption = Renderer(language, timezone, "plain").message(picture.caption)
    if len(caption) > CAPTION_LIMIT:
        caption = caption[: CAPTION_LIMIT - 1] + "…"
    return Drawn(
        png=canvas.png(),
        filename=f"{picture.name}.png",
        caption=caption,
        width=canvas.width,
        height=canvas.image.height,
        metrics=canvas.metrics,
    )
