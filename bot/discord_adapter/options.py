"""Registry commands as Discord application commands: options in, a command line out.

Each registry command is a slash command of the same name (INTERFACE §1). Its options
come from the command's declaration; what a user picks is turned back into the command
line every platform shares (`/result alice 3-1 bob`, `/club name:"HG"`), so the one
parser and the one set of handlers serve Discord too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Kind = Literal["text", "int", "flag"]
Suggest = Literal["player", "preset", "match", "my_match", "timezone"] | None


@dataclass(frozen=True, slots=True)
class Option:
    """One slash-command option and how it goes back into the command line."""

    name: str
    kind: Kind = "text"
    required: bool = False
    positional: bool = False  # written as a bare word (`/report 3-1`), not `key:value`
    choices: tuple[str, ...] = ()
    suggest: Suggest = None
    word: str | None = None  # a flag writes this word when set (`/schedule all`)


@dataclass(frozen=True, slots=True)
class Sub:
    """A subcommand (`/tournament new`); `word` is what it writes on the command line."""

    name: str
    options: tuple[Option, ...] = ()
    word: str | None = None  # None: the subcommand's name


PLAYER = Option("player", required=True, positional=True, suggest="player")
REASON = Option("reason")
MATCH = Option("match", "int", suggest="match")
LANGUAGES = ("en", "es", "ro", "pl")

# The options of each registry command, by command name (INTERFACE §1 names them).
OPTIONS: dict[str, tuple[Option, ...]] = {
    "register": (Option("name"), Option("born")),
    "withdraw": (Option("confirm", "flag", positional=True, word="confirm"),),
    "report": (
        Option("score", positional=True),
        Option(
            "game",
            positional=True,
            choices=("single", "gammon", "backgammon"),
        ),
        Option("cube", "int"),
        Option("match", "int", suggest="my_match"),
    ),
    "accept": (Option("match", "int", suggest="my_match"),),
    "dispute": (Option("match", "int", suggest="my_match"),),
    "schedule": (Option("all", "flag", positional=True, word="all"),),
    "standings": (Option("group"),),
    "ranking": (Option("table", positional=True, choices=("season", "alltime", "novice")),),
    "me": (Option("language", choices=LANGUAGES),),
    "result": (
        Option("match", "int", positional=True, suggest="match"),  # `/result 5 3-1`
        Option("player", positional=True, suggest="player"),
        Option("score", required=True, positional=True),
        Option("opponent", positional=True, suggest="player"),
        Option("lot", suggest="player"),
        REASON,
    ),
    "present": (PLAYER,),
    "away": (PLAYER, REASON),
    "forfeit": (PLAYER, Option("all", "flag", positional=True, word="all"), MATCH, REASON),
    "excuse": (PLAYER, REASON),
    "sanction": (PLAYER, REASON),
    "lift": (PLAYER, REASON),
    "addplayer": (Option("name", required=True), Option("born")),
    "approve": (Option("player", required=True, positional=True, suggest="player"),),
    "pause": (Option("match", "int", required=True, positional=True, suggest="match"), REASON),
    "resume": (Option("match", "int", required=True, positional=True, suggest="match"),),
    "cancel": (Option("match", "int", required=True, positional=True, suggest="match"), REASON),
}

SUBCOMMANDS: dict[str, tuple[Sub, ...]] = {
    "club": (
        Sub(
            "settings",
            (
                Option("name"),
                Option("timezone", suggest="timezone"),
                Option("language", choices=LANGUAGES),
            ),
            word="",
        ),
        Sub("link"),
        Sub("join", (Option("code", required=True, positional=True),)),
    ),
    "tournament": (
        Sub(
            "new",
            (
                Option("name", required=True),
                Option("start", required=True),
                Option("preset", suggest="preset"),
                Option("group_size", "int"),
                Option("approval", choices=("yes", "no")),
                Option("official", choices=("yes", "no")),
                Option("seed", "int"),
            ),
        ),
        Sub("list"),
        Sub("cancel", (Option("name", required=True), Option("reason", required=True))),
    ),
}


def quote(value: str) -> str:
    """Quote a value for the command line when it has spaces or quotes of its own."""
    text = value.replace('"', "'").strip()
    if not text or any(c.isspace() for c in text) or ":" in text:
        return f'"{text}"'
    return text


def command_line(name: str, values: dict[str, object], *, sub: str | None = None) -> str:
    """Return the shared command line for a slash command and its chosen options."""
    words = [f"/{name}"]
    options: tuple[Option, ...] = OPTIONS.get(name, ())
    if sub is not None:
        found = next((s for s in SUBCOMMANDS.get(name, ()) if s.name == sub), None)
        if found is not None:
            word = found.name if found.word is None else found.word
            if word:
                words.append(word)
            options = found.options
    for option in options:
        value = values.get(option.name)
        if value is None or value is False or value == "":
            continue
        if option.kind == "flag":
            words.append(option.word or option.name)
        elif option.name == "game" and name == "report":
            words += ["game", str(value)]
        elif option.positional:
            words.append(quote(str(value)))
        else:
            words.append(f"{option.name}:{quote(str(value))}")
    return " ".join(words)
