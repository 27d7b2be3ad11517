"""Registry commands as Discord application commands: options in, a command line out.

Each registry command is a slash command of the same name (INTERFACE §1) built from its
declaration (`commands.registry`): every parameter an option of the same name, typed,
with its choices and an autocomplete source. What a user picks goes to the shared binder
as values (`parsed_line`), never as text to parse again: a value is the value, whatever
quotes or `key:` words it holds. Director commands carry `director` so the slash menu
hides them from members (Manage Server); the rights are still checked in code.

Discord cannot invoke a command that has subcommands, nor mix options with them. So a
command with two or more subcommands is a group (`/tournament new`, `/club join`), its
own parameters going into a `settings` subcommand; a single subcommand is folded into
its parent (`/withdraw confirm:True`, `/report kind:gammon`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from commands.params import Param
from commands.parsing import Parsed
from commands.registry import COMMANDS, CommandSpec
from tournament.preset import ALIASES

Kind = str  # "text" | "int" | "flag"
OPTION_LIMIT = 25  # options per command, and choices per option
SETTINGS = "settings"
# The preset keys a Discord `/tournament new` offers as options (text takes them all).
PRESET_OPTIONS = ("group_size", "approval", "group_length", "knockout_length", "third_place")
PLAYER_COMMANDS_OWN_MATCHES = frozenset({"report", "accept", "dispute", "report game"})

_TYPES = {"integer": "int", "match": "int"}
# Filled in by a button, never chosen from a menu: which report an Accept answers, which
# state a correction's confirm was offered for.
BUTTON_ONLY = frozenset({("accept", "report"), ("dispute", "report"), ("result", "seen")})
BUTTON_ONLY |= {("reopen", "seen")}
# An option described for one command in its own words (a parameter shared by several
# commands); one command's own (a director's /result score, not "yours first") says so
# in its spec (commands/registry.py).
OWN_WORDS = {
    ("tournament", "name"): "arg.tournament_name",
}
# Commands that act on no tournament: no `tournament` option in their menu.
NO_TOURNAMENT = frozenset(
    {"tournament new", "tournament list", "club join", "club link", "club confirm"}
)
_SUGGEST = {"player": "player", "preset": "preset", "match": "match", "tournament": "tournament"}


@dataclass(frozen=True, slots=True)
class Option:
    """One slash-command option and how it goes back into the command line."""

    name: str
    kind: Kind = "text"
    required: bool = False
    positional: bool = False  # written as a bare word (`/report 3-1`), not `key:value`
    many: bool = False  # several words (a score and its tiebreaks, several players)
    choices: tuple[str, ...] = ()
    suggest: str | None = None  # the autocomplete source (commands.suggest kinds)
    description: str = ""  # catalog key
    word: str | None = None  # a flag writes this word when set (`/withdraw confirm`)
    sub_word: str | None = None  # set: the option belongs to a folded subcommand


@dataclass(frozen=True, slots=True)
class Command:
    """A slash command, or one subcommand of a group."""

    name: str
    path: str  # the registry path, for the command line: "tournament new"
    description: str  # catalog key
    options: tuple[Option, ...] = ()
    subcommands: tuple[Command, ...] = ()
    director: bool = False  # hidden from members in the slash menu (Manage Server)


def option(param: Param, path: str, *, sub_word: str | None = None) -> Option:
    """Map a declared parameter to a Discord option."""
    suggest = _SUGGEST.get(param.type)
    if suggest == "match" and path in PLAYER_COMMANDS_OWN_MATCHES:
        suggest = "my_match"
    return Option(
        name=param.name,
        kind=_TYPES.get(param.type, "text"),
        required=(param.required or param.expected) and sub_word is None,
        positional=param.positional,
        many=param.many,
        choices=param.choices[:OPTION_LIMIT],
        suggest=None if param.choices else suggest,
        description=OWN_WORDS.get((path.split(" ", 1)[0], param.name), param.description_key),
        sub_word=sub_word,
    )


def _shown(spec: CommandSpec, param: Param) -> bool:
    """Whether a parameter is an option in the slash menu."""
    top = spec.name.split(" ", 1)[0]
    if (top, param.name) in BUTTON_ONLY:
        return False
    return not (param.type == "tournament" and spec.name in NO_TOURNAMENT)


def _options(spec: CommandSpec) -> list[Option]:
    options = [option(p, spec.name) for p in spec.signature.params if _shown(spec, p)]
    if spec.preset_options:
        options += [
            Option(key, description=f"arg.{key}") for key in PRESET_OPTIONS if key in ALIASES
        ]
    return options


def _folded(spec: CommandSpec) -> tuple[Option, ...]:
    """The parent's options plus its one subcommand's, made optional."""
    options = _options(spec)
    (sub,) = spec.subcommands
    if not sub.params:
        options.append(
            Option(sub.word, "flag", description=sub.summary_key, word=sub.word, sub_word=sub.word)
        )
    taken = {o.name for o in options}
    options += [
        option(p, sub.name, sub_word=sub.word)
        for p in sub.params
        if p.name not in taken and _shown(sub, p)
    ]
    # A folded parent's required positional (report's score) is optional on Discord: the
    # subcommand's form does without it; the shared binder still says what is missing.
    options = [o if o.sub_word is not None or not o.required else _optional(o) for o in options]
    return tuple(options[:OPTION_LIMIT])


def _optional(o: Option) -> Option:
    return Option(
        o.name, o.kind, False, o.positional, o.many, o.choices, o.suggest, o.description, o.word
    )


# Every command takes `club` (autocompleted over the asker's clubs): in a private chat
# a member of two clubs says which; in a server it must be the server's own club.
CLUB = Option("club", suggest="club", description="arg.club_choice")


def command(spec: CommandSpec) -> Command:
    """Return the Discord shape of one registry command, each with a `club` option."""
    shape = _shape(spec)
    if shape.subcommands:
        return dataclasses.replace(
            shape, subcommands=tuple(_with_club(sub) for sub in shape.subcommands)
        )
    return _with_club(shape)


def _with_club(shape: Command) -> Command:
    if any(o.name == CLUB.name for o in shape.options):
        return shape
    return dataclasses.replace(shape, options=(*shape.options[: OPTION_LIMIT - 1], CLUB))


def _shape(spec: CommandSpec) -> Command:
    return dataclasses.replace(_plain_shape(spec), director=spec.role == "director")


def _plain_shape(spec: CommandSpec) -> Command:
    if len(spec.subcommands) >= 2:
        subs = [
            Command(sub.word, sub.name, sub.summary_key, tuple(_options(sub))[:OPTION_LIMIT])
            for sub in spec.subcommands
        ]
        if spec.params:
            own = tuple(_options(spec))[:OPTION_LIMIT]
            subs.insert(0, Command(SETTINGS, spec.name, spec.summary_key, own))
        return Command(spec.name, spec.name, spec.summary_key, subcommands=tuple(subs))
    if spec.subcommands:
        return Command(spec.name, spec.name, spec.summary_key, _folded(spec))
    return Command(spec.name, spec.name, spec.summary_key, tuple(_options(spec))[:OPTION_LIMIT])


def commands() -> list[Command]:
    """Return every registry command in its Discord shape, in registry order."""
    return [command(spec) for spec in COMMANDS]


def quote(value: str) -> str:
    """Quote a value for the command line when it has spaces or colons of its own."""
    text = value.replace('"', "'").strip()
    if not text or any(c.isspace() for c in text) or ":" in text:
        return f'"{text}"'
    return text


def command_line(shape: Command, values: dict[str, object]) -> str:
    """Return the shared command line for a slash command and its chosen options."""
    words = ["/" + shape.path]
    chosen = [o for o in shape.options if values.get(o.name) not in (None, False, "")]
    subs = {o.sub_word for o in chosen if o.sub_word is not None}
    if len(subs) == 1:
        words.append(subs.pop())
    for o in chosen:
        value = values[o.name]
        if o.kind == "flag":
            continue  # a folded subcommand's word, written above
        if o.positional:
            # Values, never syntax: each word of a many-word value is quoted when it
            # could be read as an option (`3-1 club:Beta` stays a score's words).
            many = " ".join(quote(w) for w in str(value).split())
            words.append(many if o.many else quote(str(value)))
        else:
            words.append(f"{o.name}:{quote(str(value))}")
    return " ".join(words)


def parsed_line(shape: Command, values: dict[str, object]) -> Parsed:
    """Return a slash command and its chosen options as the binder takes them: each value
    under its option's name, as given (never quoted, split or read again)."""
    top, _, sub = shape.path.partition(" ")
    chosen = [o for o in shape.options if values.get(o.name) not in (None, False, "")]
    words = {o.sub_word for o in chosen if o.sub_word is not None}
    if sub:
        args: tuple[str, ...] = (sub,)
    elif len(words) == 1:
        args = (words.pop(),)
    else:
        args = ()
    options = {o.name: str(values[o.name]).strip() for o in chosen if o.kind != "flag"}
    return Parsed(name=top, args=args, options=options)
