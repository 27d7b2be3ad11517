"""The scheduler's use cases: apply what fell due in every unfinished tournament, and
keep the bounded stores bounded (on their own, slower, clock)."""

from __future__ import annotations

from datetime import datetime, timedelta

from commands.config import CommandConfig
from commands.ports import UnitOfWorkFactory
from commands.session import Invocation, Session, quiet_until
from tournament import due

# Pruning is a day-scale chore: once an hour (and at start) keeps every store bounded.
HOUSEKEEPING_EVERY = timedelta(hours=1)


async def sweep_due(
    *,
    uow_factory: UnitOfWorkFactory,
    config: CommandConfig,
    now: datetime,
    housekeeping: bool = True,
) -> datetime | None:
    """Apply everything due by `now`, one tournament per transaction; return the next
    deadline of any tournament, or None when nothing waits. `housekeeping=False` leaves
    the pruning to `housekeep` on its own timer."""
    async with uow_factory() as uow:
        unfinished = await uow.tournaments.unfinished()
        if housekeeping:
            await uow.housekeeping.prune(now)
            await uow.commit()
    deadlines: list[datetime] = []
    for tournament_id, club_id in unfinished:
        async with uow_factory() as uow:
            state = await uow.tournaments.get(tournament_id, for_update=True)
            quiet = quiet_until(uow, state, now)
            if quiet is not None:
                # The command that saved it found nothing due before then: no load of
                # its club, no save, no sweep (a thousand clubs wake the scheduler).
                await uow.commit()
                if quiet[0] is not None:
                    deadlines.append(quiet[0])
                continue
            events = due.sweep(state, now)
            session = Session(
                uow=uow,
                inv=Invocation(
                    platform="clubtd",
                    chat="",
                    user="scheduler",
                    user_name="clubtd",
                    text="",
                    now=now,
                ),
                config=config,
                club=await uow.clubs.get(club_id),
                is_director=False,
                player=None,
                events=events,
            )
            session.adopt(state)
            await session.finish()
            await uow.commit()
            if session.deadline is not None:
                deadlines.append(session.deadline)
    return min(deadlines, default=None)


async def housekeep(*, uow_factory: UnitOfWorkFactory, now: datetime) -> None:
    """Prune the bounded stores (docs/SECURITY.md): handled messages, used codes, old
    update ids and button tokens, as of `now`."""
    async with uow_factory() as uow:
        await uow.housekeeping.prune(now)
        await uow.commit()
