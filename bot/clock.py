"""Clocks: the only place the bot reads the time (ARCHITECTURE, "Time")."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Protocol


class Clock(Protocol):
    def now(self) -> datetime:
        """Return the current time, aware, in UTC."""
        ...


class RealClock:
    """The wall clock."""

    def now(self) -> datetime:
        return datetime.now(UTC)


class VirtualClock:
    """A clock that moves only when told, and never backwards (transcripts, tests)."""

    def __init__(self, start: datetime) -> None:
        self._now = _utc(start)

    def now(self) -> datetime:
        return self._now

    def advance_to(self, moment: datetime) -> None:
        """Move the clock to `moment`; refuse to go back in time."""
        moment = _utc(moment)
        if moment < self._now:
            raise ValueError(
                f"the clock cannot go back from {self._now.isoformat()} to {moment.isoformat()}"
            )
        self._now = moment


def _utc(moment: datetime) -> datetime:
    if moment.tzinfo is None:
        raise ValueError(f"a naive time: {moment.isoformat()} (give a time zone)")
    return moment.astimezone(UTC)
