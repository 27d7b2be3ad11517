"""Pictures on Discord, end to end: files in embeds, their text twins, and refusals.

`/standings` and a player's `/schedule` are answered with PNG files shown in embeds
(the interaction callback is a multipart upload); with `/club pictures:no` the same
answers are text tables in embeds; when Discord refuses the upload (413, too large)
the answer and the live standings go out as their text twins instead.
"""

from __future__ import annotations

from tests.discord.conftest import GENERAL, GUILD, World
from tests.discord.standin import UPLOAD_LIMIT, Message
from tests.discord.test_e2e import _new_cup, _png


async def _drawn(world: World) -> None:
    """A cup with every player checked in and the groups drawn."""
    await _new_cup(world)
    for player in world.players:
        await world.slash(player, "register")
        await world.slash(player, "checkin")
    await world.slash(world.ana, "draw")


async def _ask(world: World, who: object, name: str, **options: object) -> Message:
    standin = world.standin
    interaction = await standin.slash(
        who,  # type: ignore[arg-type]
        name,
        guild_id=GUILD,
        channel_id=GENERAL,
        **options,
    )
    return await standin.answer(interaction)


async def test_standings_and_a_schedule_are_answered_as_pictures(world: World) -> None:
    await _drawn(world)
    standings = await _ask(world, world.players[0], "standings")
    assert len(standings.pngs()) == 1, standings.text
    assert standings.images() == [standings.attachments[0].filename]
    assert standings.attachments[0].filename.endswith("group-1.png")
    width, height = _png(standings.pngs()[0])
    assert width >= 300 and height >= 100
    assert "group 1" in standings.embeds[0]["title"] and not standings.pinged
    assert standings.ephemeral  # a routine look-up, private (issue 20)

    card = await _ask(world, world.players[1], "schedule")
    assert card.ephemeral and len(card.pngs()) == 1, card.text
    _png(card.pngs()[0])
    assert card.attachments[0].filename.endswith("-bob.png")


async def test_pictures_off_answers_with_text_tables(world: World) -> None:
    await _drawn(world)
    turned = await world.slash(world.ana, "club", sub="settings", pictures="no")
    assert "as text" in turned
    standings = await _ask(world, world.players[0], "standings")
    assert not standings.attachments and not standings.images()
    assert "```" in standings.embeds[0]["description"]
    assert "Alice" in standings.text


async def test_a_refused_upload_sends_the_text_twin(world: World) -> None:
    standin = world.standin
    await _drawn(world)
    standin.upload_limit = 200  # bytes: every picture is too large now
    standings = await _ask(world, world.players[0], "standings")
    assert not standings.attachments
    assert "```" in standings.embeds[0]["description"] and "Alice" in standings.text
    assert any(r.endswith("/callback") for r in standin.refused_uploads)

    # The live standings after a result: refused as a file, posted as the table.
    async def result() -> None:
        open_ = await standin.autocomplete(
            world.ana, "result", "match", guild_id=GUILD, channel_id=GENERAL, match=""
        )
        assert open_
        await world.slash(world.ana, "result", match=open_[0]["value"], score="3-0")

    def live_standings(message: Message) -> bool:
        """The live board (issue 20): the draw's message, in the open."""
        return (
            message.channel_id == GENERAL
            and not message.ephemeral
            and message.content.startswith("Draw made")
            and any(e.get("title") in ("Group 1", "January Cup: group 1") for e in message.embeds)
        )

    await result()
    live = await standin.wait_for(live_standings, seconds=30)
    await standin.wait_for(lambda m: m.id == live.id and m.edits >= 1, seconds=30)
    assert not live.attachments and world.players[0].name in live.text
    assert any(r.startswith("PATCH /api/v10/channels/") for r in standin.refused_uploads)

    # Another result: the edit with the new picture is refused too; the table is
    # edited into the same message instead.
    before, edits = live.text, live.edits
    await result()
    await standin.wait_for(lambda m: m.id == live.id and m.edits > edits, seconds=30)
    assert not live.attachments and live.text != before
    assert any(r.startswith("PATCH /api/v10/channels/") for r in standin.refused_uploads)

    # Uploads work again: the next result turns the same message into the picture.
    standin.upload_limit = UPLOAD_LIMIT
    await result()
    await standin.wait_for(lambda m: m.id == live.id and bool(m.attachments), seconds=30)
    # The board: the group's picture, and the bracket's once the knockout began.
    assert live.pngs() and live.images() == [a.filename for a in live.attachments]
    _png(live.pngs()[0])
    assert [m.id for m in standin.messages.values() if live_standings(m)] == [live.id]
