"""Offline: registry commands as slash commands, and options back to command lines."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.discord_adapter.options import (
    BUTTON_ONLY,
    NO_TOURNAMENT,
    command_line,
    commands,
    parsed_line,
)
from bot.discord_adapter.rendering import render, split
from bot.discord_adapter.slash import Translator, build_commands
from commands.parsing import Parsed
from commands.registry import BY_NAME, COMMANDS, CommandSpec
from commands.replies import Name, Reply, Table, msg


class _Runner:
    async def command(
        self, interaction: object, name: str, text: str, parsed: object = None
    ) -> None: ...

    async def suggestions(self, interaction: object, kind: str, typed: str) -> list[object]:
        return []


def test_every_registry_command_is_a_slash_command_of_the_same_name() -> None:
    built = {c.name: c for c in build_commands(_Runner())}
    assert list(built) == [spec.name for spec in COMMANDS]
    tournament = built["tournament"]
    assert isinstance(tournament, app_commands.Group)
    subs = {spec.word for spec in BY_NAME["tournament"].subcommands}
    assert {c.name for c in tournament.commands} == subs
    club = built["club"]
    assert isinstance(club, app_commands.Group)
    assert {c.name for c in club.commands} >= {"settings", "link", "join"}
    result = built["result"]
    assert isinstance(result, app_commands.Command)
    params = {p.name: p for p in result.parameters}
    declared = {p.name: p for p in BY_NAME["result"].params}
    assert params["score"].required == declared["score"].required  # the registry decides
    assert not params["player"].required
    assert params["match"].type == discord.AppCommandOptionType.integer
    assert params["player"].autocomplete and params["tournament"].autocomplete
    report = built["report"]
    assert isinstance(report, app_commands.Command)
    names = {p.name: p for p in report.parameters}
    assert not names["score"].required  # `/report kind:gammon` does without it
    assert [c.value for c in names["kind"].choices] == ["single", "gammon", "backgammon"]


def _menu(spec: CommandSpec) -> set[str]:
    """The parameters a person picks in the slash menu: not what a button fills in, no
    `tournament` on a command that acts on none (issue 20)."""
    top = spec.name.split(" ", 1)[0]
    return {
        p.name
        for p in spec.signature.params
        if (top, p.name) not in BUTTON_ONLY
        and not (p.name == "tournament" and spec.name in NO_TOURNAMENT)
    }


def test_every_declared_parameter_is_an_option_of_the_same_name() -> None:
    """INTERFACE 1: `key:value` arguments and positional ones are options of that name."""
    shapes = {c.name: c for c in commands()}
    for spec in COMMANDS:
        shape = shapes[spec.name]
        if shape.subcommands:
            subs = {s.path: s for s in shape.subcommands}
            for sub in spec.subcommands:
                assert _menu(sub) <= {o.name for o in subs[sub.name].options}, sub.name
        else:
            assert _menu(spec) <= {o.name for o in shape.options}, spec.name


def test_button_only_values_and_needless_tournaments_are_not_in_the_menu() -> None:
    shapes = {c.name: c for c in commands()}
    assert "report" not in {o.name for o in shapes["accept"].options}
    assert "seen" not in {o.name for o in shapes["result"].options}
    subs = {s.path: s for c in shapes.values() for s in c.subcommands}
    assert "tournament" not in {o.name for o in subs["tournament new"].options}
    assert "tournament" not in {o.name for o in subs["club join"].options}
    assert "tournament" in {o.name for o in shapes["report"].options}


def test_director_commands_are_hidden_from_members_in_the_menu() -> None:
    built = {c.name: c for c in build_commands(_Runner())}
    for spec in COMMANDS:
        wanted = discord.Permissions(manage_guild=True) if spec.role == "director" else None
        assert built[spec.name].default_permissions == wanted, spec.name


def test_options_reach_the_binder_as_values_never_as_text() -> None:
    """Issue 18/20: a `"` stays a `"`, and a value's `club:`/`for:` words stay its words."""
    shapes = {c.name: c for c in commands()}
    subs = {s.path: s for c in shapes.values() for s in c.subcommands}
    odd = 'Ana "Q" club:Beta for:1'
    register = parsed_line(shapes["register"], {"name": odd})
    assert register == Parsed("register", (), {"name": odd})
    report = parsed_line(shapes["report"], {"score": "3-1", "match": 5})
    assert report == Parsed("report", (), {"score": "3-1", "match": "5"})
    game = parsed_line(shapes["report"], {"kind": "gammon", "cube": 2})
    assert game == Parsed("report", ("game",), {"kind": "gammon", "cube": "2"})
    assert parsed_line(shapes["withdraw"], {"confirm": True}) == Parsed("withdraw", ("confirm",))
    new = parsed_line(subs["tournament new"], {"name": "May Cup", "approval": "no"})
    assert new == Parsed("tournament", ("new",), {"name": "May Cup", "approval": "no"})
    assert parsed_line(subs["club"], {"name": "HG"}) == Parsed("club", (), {"name": "HG"})


def test_options_become_the_shared_command_line() -> None:
    shapes = {c.name: c for c in commands()}
    report, result = shapes["report"], shapes["result"]
    assert command_line(report, {"score": "3-1", "match": 5}) == "/report 3-1 match:5"
    assert command_line(report, {"kind": "gammon", "cube": 2}) == "/report game gammon cube:2"
    assert (
        command_line(result, {"player": "Ana P.", "score": "3-1", "opponent": "bob"})
        == '/result "Ana P." 3-1 bob'
    )
    assert command_line(result, {"match": 5, "score": "3-1 1-0"}) == "/result 5 3-1 1-0"
    assert command_line(shapes["withdraw"], {"confirm": True}) == "/withdraw confirm"
    assert command_line(shapes["withdraw"], {"confirm": False}) == "/withdraw"
    new = next(s for s in shapes["tournament"].subcommands if s.name == "new")
    assert (
        command_line(new, {"name": "May Cup", "start": "2027-05-01 20:00", "approval": "no"})
        == '/tournament new name:"May Cup" start:"2027-05-01 20:00" approval:no'
    )
    club = {s.name: s for s in shapes["club"].subcommands}
    assert command_line(club["settings"], {"name": "HG"}) == "/club name:HG"
    assert command_line(club["join"], {"code": "ABC123"}) == "/club join ABC123"


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


def test_a_needed_option_the_handler_checks_is_required_in_the_menu() -> None:
    """/player rename's `to` (and merge's `into`): the text form may omit the colon, the
    menu's form must have it."""
    shapes = {c.name: c for c in commands()}
    subs = {s.path: s for s in shapes["player"].subcommands}
    assert {o.name: o.required for o in subs["player rename"].options}["to"]
    assert {o.name: o.required for o in subs["player merge"].options}["into"]


def test_a_directors_result_score_is_not_described_as_yours() -> None:
    """/report's score is "yours first"; /result's is the named player's, else white's."""
    described = {
        shape.name: {o.name: o.description for o in shape.options} for shape in commands()
    }
    assert described["report"]["score"] == "arg.score"
    assert described["result"]["score"] == "arg.result_score"
