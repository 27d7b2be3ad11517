"""Pictures on Discord, end to end: files in embeds, their text twins, and refusals.

`/standings` and a player's `/schedule` are answered with PNG files shown in embeds
(the interaction callback is a multipart upload); with `/club pictures:no` the same
answers are text tables in embeds; when Discord refuses the upload (413, too large)
the answer and the live standings go out as their text twins instead.
"""

from __future__ import annotations

from tests.discord.conftest import GENERAL, GUILD, World
from tests.discord.standin import Message
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
    assert not standings.ephemeral

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
    assert any("/callback" in refused for refused in standin.refused_uploads)

    # The live standings after a result: refused as a file, posted as the table.
    alice = world.players[0]
    mine = await standin.autocomplete(
        world.ana, "result", "match", guild_id=GUILD, channel_id=GENERAL, match=""
    )
    assert mine
    await world.slash(world.ana, "result", match=mine[0]["value"], score="3-0")
    live = await standin.wait_for(
        lambda m: (
            m.channel_id == GENERAL
            and m.interaction_id is None
            and any((e.get("title") or "") == "Group 1" for e in m.embeds)
        ),
        seconds=30,
    )
    assert not live.attachments and alice.name in live.text
    assert any("/channels/" in refused for refused in standin.refused_uploads)
