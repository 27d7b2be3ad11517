"""The player, entry or match a director's command names."""

from __future__ import annotations

from commands.params import Args, as_typed
from commands.session import Session
from tournament.club import Player
from tournament.model import Refused
from tournament.state import TournamentState


def named_player(a: Args) -> Player:
    """Return the player the command names (the declaration requires one)."""
    player = a.player("player")
    if player is None:
        raise Refused("player_name_required", usage=a.usage)
    return player


def entered(state: TournamentState, player: Player) -> None:
    """Refuse a player who has no entry in the tournament."""
    if player.id not in state.entries:
        # Naming the tournament: the one meant by default may be another.
        example = f"/addplayer {as_typed(player.name)} tournament:{as_typed(state.name)}"
        raise Refused("not_entered", name=player.name, tournament=state.name, example=example)


async def named_entry(s: Session, a: Args) -> tuple[Player, TournamentState]:
    """Return the named player and the tournament they entered."""
    player = named_player(a)
    state = await s.tournament()
    entered(state, player)
    return player, state


async def numbered(s: Session, a: Args) -> tuple[TournamentState, int]:
    """Return the tournament and the match number the command names."""
    number = a.match("match")
    if number is None:
        raise Refused("match_number_required", usage=a.usage)
    return await s.tournament(), number
