"""The scheduler's use case: apply what fell due in every unfinished tournament."""

from __future__ import annotations

from datetime import datetime

from commands.ports import UnitOfWorkFactory
from commands.session import CommandConfig, Invocation, Session
from tournament import due


async def sweep_due(
    *, uow_factory: UnitOfWorkFactory, config: CommandConfig, now: datetime
) -> datetime | None:
    """Apply everything due by `now`, one tournament per transaction; return the next
    deadline of any tournament, or None when nothing waits."""
    async with uow_factory() as uow:
        unfinished = await uow.tournaments.unfinished()
        # Bounded stores (docs/SECURITY.md): handled messages, used codes, old update
        # ids and button tokens go on the scheduler's clock.
        await uow.housekeeping.prune(now)
        await uow.commit()
    deadlines: list[datetime] = []
    for tournament_id, club_id in unfinished:
        async with uow_factory() as uow:
            state = await uow.tournaments.get(tournament_id, for_update=True)
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
            deadline = due.next_deadline(state)
            if deadline is not None:
                deadlines.append(deadline)
    return min(deadlines, default=None)
