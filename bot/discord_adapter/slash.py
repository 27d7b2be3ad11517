"""Build the application commands from the registry, and translate their descriptions.

Each registry command becomes a slash command of the same name; its options (typed,
with choices and autocomplete) come from `options.py`, subcommands become a group.
Descriptions are catalog keys, localised by discord.py's translator for es, ro and pl.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands

from bot.discord_adapter.options import Command, command_line, commands, parsed_line
from commands.catalog import template

LOCALES = {
    discord.Locale.spain_spanish: "es",
    discord.Locale.latin_american_spanish: "es",
    discord.Locale.romanian: "ro",
    discord.Locale.polish: "pl",
}
DESCRIPTION_LIMIT = 100
TYPES: dict[str, type] = {"text": str, "int": int, "flag": bool}
# Director commands are hidden from members (a server admin may grant them to the
# director role in Discord's integration settings); the rights are checked in code too.
DIRECTORS = discord.Permissions(manage_guild=True)


class Translator(app_commands.Translator):
    """Descriptions in the club languages; names stay the same words everywhere."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        language = LOCALES.get(locale)
        key = string.extras.get("key")
        if language is None or not key:
            return None
        text = template(language, key)
        return text[:DESCRIPTION_LIMIT] if text and text != key else None


def slash_key(key: str) -> str:
    """The catalog key a description is read from: the slash menu's own wording
    (`slash.<key>`, no typed syntax, an example) where there is one."""
    return "slash." + key if template("en", "slash." + key) != "slash." + key else key


def describe(key: str, fallback: str) -> app_commands.locale_str:
    """A description from the catalog (English), with its key for the translator."""
    key = slash_key(key)
    text = template("en", key)
    message = text if text and text != key else fallback
    return app_commands.locale_str(message[:DESCRIPTION_LIMIT], key=key)


def build_commands(runner: Any) -> list[app_commands.Command[Any, ..., Any] | app_commands.Group]:
    """Return one application command (or group) per registry command."""
    built: list[app_commands.Command[Any, ..., Any] | app_commands.Group] = []
    for shape in commands():
        if shape.subcommands:
            group = app_commands.Group(
                name=shape.name,
                description=describe(shape.description, shape.name),
                default_permissions=DIRECTORS if shape.director else None,
            )
            for sub in shape.subcommands:
                group.add_command(_command(runner, sub, top=shape.name))
            built.append(group)
        else:
            command = _command(runner, shape, top=shape.name)
            if shape.director:
                command.default_permissions = DIRECTORS
            built.append(command)
    return built


def _command(runner: Any, shape: Command, *, top: str) -> app_commands.Command[Any, ..., Any]:
    async def callback(interaction: discord.Interaction, **values: Any) -> None:
        await runner.command(
            interaction, top, command_line(shape, values), parsed_line(shape, values)
        )

    parameters = [
        inspect.Parameter(
            "interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction
        )
    ]
    descriptions: dict[str, app_commands.locale_str] = {}
    choices: dict[str, list[app_commands.Choice[Any]]] = {}
    completers: dict[str, Callable[..., Awaitable[list[app_commands.Choice[Any]]]]] = {}
    for option in shape.options:
        parameters.append(
            inspect.Parameter(
                option.name,
                inspect.Parameter.KEYWORD_ONLY,
                annotation=TYPES[option.kind],
                default=inspect.Parameter.empty if option.required else None,
            )
        )
        descriptions[option.name] = describe(option.description, option.name)
        if option.choices:
            choices[option.name] = [app_commands.Choice(name=c, value=c) for c in option.choices]
        elif option.suggest is not None:
            completers[option.name] = _completer(runner, option.suggest, option.kind == "int")
    callback.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    callback.__discord_app_commands_param_description__ = descriptions  # type: ignore[attr-defined]
    callback.__discord_app_commands_param_choices__ = choices  # type: ignore[attr-defined]
    callback.__discord_app_commands_param_autocomplete__ = completers  # type: ignore[attr-defined]
    return app_commands.Command(
        name=shape.name, description=describe(shape.description, shape.name), callback=callback
    )


def _completer(
    runner: Any, kind: str, numeric: bool
) -> Callable[[discord.Interaction, Any], Awaitable[list[app_commands.Choice[Any]]]]:
    async def complete(
        interaction: discord.Interaction, current: Any
    ) -> list[app_commands.Choice[Any]]:
        found = await runner.suggestions(interaction, kind, str(current or ""))
        # An integer option's choices must be integers.
        return [
            app_commands.Choice(name=label[:100], value=int(value) if numeric else value[:100])
            for label, value in found
            if not numeric or value.isdigit()
        ]

    return complete
