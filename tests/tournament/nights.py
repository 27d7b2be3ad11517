"""Build small tournament nights for rule tests: names in, ids out."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from tournament import attendance, progress
from tournament.model import Stage
from tournament.preset import Preset, load_preset
from tournament.state import Match, TournamentState

START = datetime(2026, 1, 31, 20, 0, tzinfo=UTC)


def at(hhmm: str, day: int = 31) -> datetime:
    """Return 2026-01-<day> HH:MM UTC."""
    hours, minutes = map(int, hhmm.split(":"))
    return datetime(2026, 1, day, hours, minutes, tzinfo=UTC)


class Night:
    """A tournament and the names of its players, for readable tests."""

    def __init__(
        self,
        preset: Preset | str = "hgv-backgammon",
        *,
        start: datetime = START,
        seed: int = 1,
        **overrides: object,
    ) -> None:
        if isinstance(preset, str):
            preset = load_preset(preset, overrides or None)
        self.state = TournamentState(
            id=1,
            name="January Cup",
            preset=preset,
            start=start,
            seed=seed,
            created_at=start - timedelta(days=7),
        )
        self.ids: dict[str, int] = {}

    def id(self, name: str) -> int:
        return self.ids[name]

    def name(self, player: int) -> str:
        return next(n for n, i in self.ids.items() if i == player)

    def enter(self, *names: str, confirm: bool = True, check_in: datetime | None = None) -> None:
        for name in names:
            player = self.ids.setdefault(name, len(self.ids) + 1)
            attendance.register(
                self.state,
                player,
                self.state.start - timedelta(days=3),
                by_director=True,
                born=datetime(1970, 1, 1).date(),
            )
            if confirm:
                attendance.confirm(self.state, player, self.state.start - timedelta(days=2))
            if check_in is not None:
                attendance.check_in(self.state, player, check_in, director=True)

    def draw(self, *ranking: str, when: datetime | None = None) -> None:
        order = tuple(self.ids[n] for n in ranking) or tuple(self.ids.values())
        progress.draw(self.state, order, when or self.state.start)

    def match(self, a: str, b: str, stage: Stage | None = None) -> Match:
        pair = {self.ids[a], self.ids[b]}
        return next(
            m
            for m in sorted(self.state.matches.values(), key=lambda m: m.number)
            if set(m.players) == pair and (stage is None or m.stage is stage)
        )

    def score(self, match: Match) -> tuple[int, int]:
        return (match.white_score, match.black_score)
