"""The command registry: names, who may use them, and their handlers.

It feeds /help, every adapter (Telegram's command menu, Discord's slash commands) and
the parity test that checks each platform offers every command. Summaries and usage
lines live in the message catalog under `help.<name>` and `usage.<name>`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Literal

from commands import directors, lookups, players
from commands.parsing import Parsed
from commands.replies import Reply
from commands.session import Session

Handler = Callable[[Session, Parsed], Awaitable[Reply]]
Role = Literal["player", "director"]


@dataclass(frozen=True, slots=True)
class CommandSpec:
    name: str
    handler: Handler
    role: Role
    writes: bool = True  # changes state (so it locks the tournament)


COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec("register", players.register, "player"),
    CommandSpec("confirm", players.confirm, "player"),
    CommandSpec("withdraw", players.withdraw, "player"),
    CommandSpec("checkin", players.checkin, "player"),
    CommandSpec("report", players.report, "player"),
    CommandSpec("accept", players.accept, "player"),
    CommandSpec("dispute", players.dispute, "player"),
    CommandSpec("schedule", lookups.schedule, "player", writes=False),
    CommandSpec("standings", lookups.standings, "player", writes=False),
    CommandSpec("bracket", lookups.bracket, "player", writes=False),
    CommandSpec("ranking", lookups.ranking, "player", writes=False),
    CommandSpec("me", lookups.me, "player", writes=False),
    CommandSpec("rules", lookups.rules, "player", writes=False),
    CommandSpec("help", lookups.help_, "player", writes=False),
    CommandSpec("club", directors.club, "director"),
    CommandSpec("tournament", directors.tournament, "director"),
    CommandSpec("draw", directors.draw, "director"),
    CommandSpec("result", directors.result, "director"),
    CommandSpec("present", directors.present, "director"),
    CommandSpec("away", directors.away, "director"),
    CommandSpec("forfeit", directors.forfeit, "director"),
    CommandSpec("excuse", directors.excuse, "director"),
    CommandSpec("sanction", directors.sanction, "director"),
    CommandSpec("lift", directors.lift, "director"),
    CommandSpec("addplayer", directors.addplayer, "director"),
    CommandSpec("approve", directors.approve, "director"),
    CommandSpec("pause", directors.pause, "director"),
    CommandSpec("resume", directors.resume, "director"),
    CommandSpec("cancel", directors.cancel, "director"),
    CommandSpec("status", directors.status, "director", writes=False),
)

BY_NAME: dict[str, CommandSpec] = {spec.name: spec for spec in COMMANDS}
