"""Offline: how a reply's pictures become Discord messages (files in embeds, or text)."""

from __future__ import annotations

import discord
import pytest

from bot.discord_adapter.posts import PICTURES_PER_MESSAGE, Post, prepare, refuses_file
from bot.discord_adapter.rendering import render
from bot.pictures import Drawn
from bot.pictures.canvas import Metrics
from commands.pictures import ranking_view
from commands.replies import Name, Picture, Reply, Table, msg


def _picture(name: str) -> Picture:
    title = msg("title.group", group=name)
    return Picture(
        name=name,
        view=ranking_view(title, [(1, "Ana", 6.0, 1, True)]),
        caption=title,
        fallback=(Table(title, (msg("col.rank"),), ((Name(f"row of {name}"),),)),),
    )


def _fake_draw(picture: Picture, language: str, timezone: str) -> Drawn:
    return Drawn(
        png=b"\x89PNG\r\n\x1a\n" + picture.name.encode(),
        filename="same.png",  # every picture the same name: the post must tell them apart
        caption=f"caption {picture.name}",
        width=10,
        height=10,
        metrics=Metrics(),
    )


def _broken_draw(picture: Picture, language: str, timezone: str) -> Drawn:
    raise ValueError("a renderer bug")


def _response(status: int, code: int) -> discord.HTTPException:
    class _Response:
        reason = "refused"

    response = _Response()
    response.status = status  # type: ignore[attr-defined]
    return discord.HTTPException(response, {"code": code, "message": "refused"})  # type: ignore[arg-type]


async def test_pictures_go_ten_a_message_each_in_its_embed_with_a_unique_file() -> None:
    count = PICTURES_PER_MESSAGE + 2
    reply = Reply((msg("title.group", group="x"), *(_picture(str(i)) for i in range(count))))
    posts = await prepare(render(reply, "en", "UTC"), _fake_draw)
    text, first, second = posts
    assert text.content == "Group x" and not text.files
    assert [len(p.files) for p in (first, second)] == [PICTURES_PER_MESSAGE, 2]
    for post in (first, second):
        names = [name for name, _ in post.files]
        assert len(set(names)) == len(names)
        assert [e.image.url for e in post.embeds] == [f"attachment://{n}" for n in names]
        assert post.content is None and post.fallback  # the text twin, if refused
    assert first.embeds[0].title == "caption 0"
    assert [f.filename for f in second.attachments()] == [n for n, _ in second.files]
    twin = "\n".join(e.description or "" for p in first.fallback for e in p.embeds)
    assert "row of 0" in twin and "row of 9" in twin and "row of 10" not in twin


async def test_pictures_off_or_a_failed_drawing_send_the_text_twin() -> None:
    reply = Reply((_picture("1"),))
    off = await prepare(render(reply, "en", "UTC", pictures=False), _fake_draw)
    broken = await prepare(render(reply, "en", "UTC"), _broken_draw)
    for posts in (off, broken):
        assert [p.files for p in posts] == [()]
        assert "row of 1" in (posts[0].embeds[0].description or "")
    assert isinstance(off[0], Post)


@pytest.mark.parametrize(
    ("status", "code", "refused"),
    [
        (413, 40005, True),  # too large
        (403, 50013, True),  # no right to attach files here
        (400, 50035, True),  # a bad upload
        (404, 10008, False),  # the message (or the interaction) is gone
        (429, 0, False),
        (500, 0, False),
        (403, 50007, False),  # closed DMs: the text would be refused as well
    ],
)
def test_which_refusals_the_text_twin_can_get_past(status: int, code: int, refused: bool) -> None:
    assert refuses_file(_response(status, code)) is refused
