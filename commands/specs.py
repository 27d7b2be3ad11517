"""A command's declaration: its parameters, subcommands, role and handler.

The registry (commands/registry.py) lists every command; /help, the parser and the
adapters read these declarations.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Literal

from commands.params import TOURNAMENT, Args, Param, Signature
from commands.replies import Reply
from commands.session import Session

Handler = Callable[[Session, Args], Awaitable[Reply]]
Role = Literal["player", "director"]
Scope = Literal["club", "chat"]


@dataclass(frozen=True, slots=True)
class CommandSpec:
    """A command or subcommand; a subcommand's name is its path (`tournament new`)."""

    name: str
    handler: Handler | None  # None only for a "chat" command, which dispatch runs itself
    role: Role
    params: tuple[Param, ...] = ()
    subcommands: tuple[CommandSpec, ...] = ()
    writes: bool = True  # changes state (so it locks the tournament)
    # Usually saves one row of the tournament (a report): tried first without locks,
    # run again locked when it did more (commands/dispatch.py, storage/transaction.py).
    lock_free: bool = False
    preset_options: bool = False  # takes the preset's keys as options too
    # "chat": acts on the chat itself before any club is opened there (/club join).
    scope: Scope = "club"
    # How /help shows it when one usage line would suggest mixes that do not work:
    # the ways to type it, without the command; options nobody mentions follow them.
    forms: tuple[str, ...] = ()

    @property
    def word(self) -> str:
        """Return the word that names it: the last of its path."""
        return self.name.rsplit(" ", 1)[-1]

    @property
    def summary_key(self) -> str:
        return "help." + self.name.replace(" ", ".")

    @property
    def signature(self) -> Signature:
        """Return its parameters with the `tournament:` option every command accepts."""
        extra = () if any(p.type == "tournament" for p in self.params) else (TOURNAMENT,)
        return Signature(self.name, self.params + extra, self.preset_options)

    def usage(self, *, full: bool = False) -> str:
        return self.signature.usage(full=full)

    def help_usage(self) -> str:
        """Return the command as /help shows it: its forms, or every parameter."""
        if not self.forms:
            return self.usage(full=True)
        said = {word for form in self.forms for word in form.split()}
        rest = [
            f"[{p.usage()}]"
            for p in self.params
            if p.usage() not in said and p.type != "tournament"
        ]
        ways = " · ".join(f"/{self.name} {form}" for form in self.forms)
        return " ".join([ways, *rest])
