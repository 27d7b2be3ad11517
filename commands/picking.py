"""The player, entry or match a director's command names."""

from __future__ import annotations

from commands.params import Args, as_typed
from commands.replies import Hint
from commands.session import Session
from tournament import calendar, sanctions
from tournament.calendar import Listed
from tournament.club import Player
from tournament.model import Refused
from tournament.state import TournamentState


def named_player(a: Args) -> Player:
    """Return the player the command names (the declaration requires one)."""
    player = a.player("player")
    if player is None:
        raise Refused("player_name_required", usage=a.usage)
    return player


async def entered(s: Session, state: TournamentState, player: Player) -> None:
    """Refuse a player who has no entry in the tournament; one suspended from it is told
    so, with the way to lift it ("/addplayer" would only meet the suspension)."""
    if player.id not in state.entries:
        suspensions = await s.uow.sanctions.for_club(s.club.id)
        if sanctions.suspension_for(suspensions, player.id, state.id) is not None:
            raise Refused("addplayer_suspended", name=player.name, tournament=state.name)
        others = [] if s.chosen else await entered_elsewhere(s, state, player, same_day=True)
        if len(others) == 1:
            (other,) = others
            # A day of two cups: the director means the one the player is in.
            option = Hint(f"tournament:{as_typed(other.name)}")
            raise Refused(
                "not_entered_here",
                name=player.name,
                tournament=state.name,
                other=other.name,
                option=option,
            )
        # Naming the tournament: the one meant by default may be another.
        example = f"/addplayer {as_typed(player.name)} tournament:{as_typed(state.name)}"
        raise Refused("not_entered", name=player.name, tournament=state.name, example=example)


async def entered_elsewhere(
    s: Session, state: TournamentState, player: Player, *, same_day: bool = False
) -> list[Listed]:
    """Return the tournaments taking entries, besides `state`, that `player` has an active
    entry in, the first to start first; `same_day`: only those of `state`'s day."""
    zone = s.club.timezone
    listed = await s.uow.tournaments.list(s.club.id)
    others = [t for t in calendar.open_for_entries(listed, s.now, zone) if t.id != state.id]
    if same_day:
        day = calendar.local(state.start, zone).date()
        others = [t for t in others if calendar.local(t.start, zone).date() == day]
    if not others:
        return []  # the common case: one tournament open, no look-up of the entries
    entered = set(await s.uow.tournaments.of_player(player.id, active=True))
    return [t for t in others if t.id in entered]


async def named_entry(s: Session, a: Args) -> tuple[Player, TournamentState]:
    """Return the named player and the tournament they entered."""
    player = named_player(a)
    state = await s.tournament()
    await entered(s, state, player)
    return player, state


async def numbered(s: Session, a: Args) -> tuple[TournamentState, int]:
    """Return the tournament and the match number the command names."""
    number = a.match("match")
    if number is None:
        raise Refused("match_number_required", usage=a.usage)
    return await s.tournament(), number
