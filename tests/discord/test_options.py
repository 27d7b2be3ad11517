"""Offline: registry commands as slash commands, and options back to command lines."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.discord_adapter.options import command_line
from bot.discord_adapter.rendering import render, split
from bot.discord_adapter.slash import Translator, build_commands
from commands.registry import COMMANDS
from commands.replies import Name, Reply, Table, msg


class _Runner:
    async def command(self, interaction: object, name: str, text: str) -> None: ...

    async def suggestions(self, interaction: object, kind: str, typed: str) -> list[object]:
        return []


def test_every_registry_command_is_a_slash_command_of_the_same_name() -> None:
    built = {c.name: c for c in build_commands(_Runner())}
    assert list(built) == [spec.name for spec in COMMANDS]
    assert isinstance(built["tournament"], app_commands.Group)
    assert {c.name for c in built["tournament"].commands} == {"new", "list", "cancel"}
    assert {c.name for c in built["club"].commands} == {"settings", "link", "join"}
    result = built["result"]
    assert isinstance(result, app_commands.Command)
    params = {p.name: p for p in result.parameters}
    assert params["score"].required and not params["player"].required
    assert params["match"].type == discord.AppCommandOptionType.integer
    assert params["player"].autocomplete is not None
    me = built["me"]
    assert isinstance(me, app_commands.Command)
    assert [c.value for c in me.parameters[0].choices] == ["en", "es", "ro", "pl"]


def test_options_become_the_shared_command_line() -> None:
    assert command_line("report", {"score": "3-1", "match": 5}) == "/report 3-1 match:5"
    assert command_line("report", {"game": "gammon", "cube": 2}) == "/report game gammon cube:2"
    assert (
        command_line("result", {"player": "Ana P.", "score": "3-1", "opponent": "bob"})
        == '/result "Ana P." 3-1 bob'
    )
    assert command_line("result", {"match": 5, "score": "void"}) == "/result 5 void"
    assert command_line("schedule", {"all": True}) == "/schedule all"
    assert command_line("schedule", {"all": False}) == "/schedule"
    assert (
        command_line("tournament", {"name": "May Cup", "start": "2027-05-01 20:00"}, sub="new")
        == '/tournament new name:"May Cup" start:"2027-05-01 20:00"'
    )
    assert command_line("club", {"name": "HG"}, sub="settings") == "/club name:HG"
    assert command_line("club", {"code": "ABC123"}, sub="join") == "/club join ABC123"


async def test_descriptions_are_translated_names_are_not() -> None:
    translator = Translator()
    text = app_commands.locale_str("join the club", key="help.register")
    context = app_commands.TranslationContext(
        app_commands.TranslationContextLocation.command_description, None
    )
    spanish = await translator.translate(text, discord.Locale.spain_spanish, context)
    assert spanish and spanish != "join the club"
    assert await translator.translate(text, discord.Locale.japanese, context) is None


def test_rendering_escapes_markdown_and_puts_tables_in_embeds() -> None:
    reply = Reply(
        (
            msg("line.void", number=1, white=Name("@everyone **x**"), black=Name("b")),
            Table(msg("help.title"), (msg("help.title"),), (("a",),)),
        )
    )
    out = render(reply, "en", "UTC")
    assert "\\*\\*x\\*\\*" in out.contents[0] and "@everyone" not in out.contents[0]
    assert out.embeds[0].description is not None and "```" in out.embeds[0].description
    assert out.allowed_mentions().everyone is False


def test_long_text_is_split_under_discords_limit() -> None:
    parts = split("\n".join(["x" * 150] * 40))
    assert len(parts) > 1 and all(len(p) <= 2000 for p in parts)
    assert "".join(p.replace("\n", "") for p in parts) == "x" * 6000
