"""/help: the commands a person may use, and one command's options, from the registry.

The registry passes itself in (commands/registry.py `_help`), so this module never
imports it: the registry lists this handler.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from commands import arguments
from commands.lookups import preset_options
from commands.params import Args
from commands.replies import Hint, Msg, Reply, msg
from commands.session import Session
from commands.specs import CommandSpec
from tournament.model import Refused
from tournament.preset import PRESET_NAMES, load_preset


async def help_(
    s: Session, a: Args, by_name: Mapping[str, CommandSpec], allowed: Sequence[CommandSpec]
) -> Reply:
    """List the commands you may use; /help COMMAND explains one and its options."""

    def dated(usage: str) -> str:
        return arguments.dated(usage, s.now, s.club.timezone)

    def line(spec: CommandSpec) -> Msg:
        usage = Hint(dated(spec.help_usage()))  # in the slash menu's form on Discord
        return msg("help.line", usage=usage, summary=msg(spec.summary_key))

    try:
        state = await s.maybe_tournament()
    except Refused:
        state = None  # several tournaments: every command is shown
    # Game by game reports (gammons, the cube) are backgammon's: a draughts club's /help
    # does not offer them.
    hidden = {"report game"} if state is not None and state.preset.game != "backgammon" else set()
    words = [w.lower().lstrip("/") for w in a.values.get("command", [])]
    if words:
        spec = by_name.get(words[0])
        if spec is None or spec not in allowed:
            names = [spec.name for spec in allowed]
            raise Refused("unknown_help", name=words[0], commands=", ".join(names))
        chosen = [spec, *(sub for sub in spec.subcommands if sub.name not in hidden)]
        if len(words) > 1:
            chosen = [sub for sub in spec.subcommands if sub.word == words[1]] or chosen
        parts = []
        for one in chosen:
            parts.append(line(one))
            for param in one.signature.params:
                parts.append(
                    msg(
                        "help.param",
                        name=dated(param.usage()),
                        description=msg(param.description_key),
                    )
                )
            if one.preset_options:
                parts.extend(preset_options(load_preset(PRESET_NAMES[0]), now=False))
        return Reply(tuple(parts), private=True)
    lines = [msg("help.title")]
    for spec in allowed:
        lines.append(line(spec))
        lines.extend(line(sub) for sub in spec.subcommands if sub.name not in hidden)
    lines.append(msg("help.more"))
    return Reply(tuple(lines), private=True)
