"""Which tournament an entry means: the one taking entries, when the one in play is not
the night being entered for."""

from __future__ import annotations

from commands.session import Session
from tournament import calendar
from tournament.model import TournamentStatus

_IN_PLAY = (TournamentStatus.GROUPS, TournamentStatus.KNOCKOUT)


async def open_for_entries(s: Session, *, entering: bool = False, walk_ins: bool = False) -> None:
    """Make the tournament taking entries the session's, when the one in play is not the
    player's night: next month's entries open on the night this month's is played, and a
    night left unfinished (a dispute never settled) stays in play into next month.

    `entering`: /register, /confirm; tonight's entries are closed, the next one's open.
    `walk_ins`: a director's /addplayer; tonight's tournament takes walk-ins, but one left
    in play from an earlier night (a Last Chance final never reported) takes nobody.
    """
    if s.chosen:
        return
    # Locked as the session's own listing will be: that listing is then this one.
    listed = await s.uow.tournaments.list(s.club.id, for_update=s.writes)
    if not any(t.status in _IN_PLAY for t in listed):
        return
    zone = s.club.timezone
    tonight = {t.id for t in listed if calendar.played_tonight(t, s.now, zone)}
    if walk_ins and tonight:
        return  # tonight's walk-ins, or its refusal that names next month's line
    if not (walk_ins or entering) and s.player is not None:
        playing = set(await s.uow.tournaments.of_player(s.player.id, active=True))
        if tonight & playing:
            return  # they play tonight: their commands mean tonight (not once they are out)
    open_ = calendar.open_for_entries(listed, s.now, zone)
    if open_:
        s.choose(open_[0].id)
