"""Fixed tournaments for the picture tests and the benchmark: seeded, so always the same."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from tournament import progress, reports
from tournament.model import MatchStatus, TournamentStatus
from tournament.preset import load_preset
from tournament.simulation import new_tournament, random_score
from tournament.state import TournamentState

START = datetime(2026, 3, 6, 19, 0, tzinfo=UTC)
FIRST = [
    "Ana",
    "Bogdan",
    "Carmen",
    "Dorota",
    "Emilio",
    "Florin",
    "Grażyna",
    "Héctor",
    "Ioana",
    "Jerzy",
    "Katarzyna",
    "Lucía",
    "Mihai",
    "Núria",
    "Oana",
    "Paweł",
    "Quique",
    "Radu",
    "Ștefan",
    "Tomasz",
    "Úrsula",
    "Vasile",
    "Wojciech",
    "Ximena",
    "Yolanda",
    "Zbigniew",
]
LAST = [
    "Popescu",
    "Núñez",
    "Wiśniewski",
    "Țurcanu",
    "García",
    "Kowalczyk",
    "Ionescu",
    "Muñoz",
    "Żółkiewska",
    "Dumitrescu",
    "Peña",
    "Szczepański",
    "Răducanu",
    "Ibáñez",
    "Łukasik",
]
EVERY_DIACRITIC = "Ăâîșț ĂÂÎȘȚ ąćęłńóśźż ĄĆĘŁŃÓŚŹŻ áéíñóúü ÁÉÍÑÓÚÜ"


def player_names(count: int) -> dict[int, str]:
    """Return a fixed first-and-last name for players 1..count."""
    return {
        p: f"{FIRST[(p - 1) % len(FIRST)]} {LAST[(p * 7) % len(LAST)]}"
        for p in range(1, count + 1)
    }


def simulated(
    players: int,
    *,
    size: int = 3,
    qualifiers: int = 3,
    third_place: bool = False,
    consolation: bool = False,
    waves: int | None = None,
    seed: int = 7,
) -> TournamentState:
    """Return a tournament drawn and played `waves` rounds on (None: to the end)."""
    preset = load_preset(
        "hgv-backgammon",
        {
            "group_size": size,
            "qualifiers": qualifiers,
            "third_place": third_place,
            "consolation": consolation,
        },
    )
    state = new_tournament(preset, players, START, seed=seed)
    state.name = "Spring Cup"
    rng = random.Random(seed)
    at = state.start
    progress.draw(state, tuple(sorted(state.entries)), at)
    played = 0
    while state.status is not TournamentStatus.FINISHED and (waves is None or played < waves):
        wave = [
            m
            for m in state.matches.values()
            if m.is_ready and not m.is_final and m.status is not MatchStatus.DISPUTED
        ]
        if not wave:
            break
        at += timedelta(minutes=preset.groups.round_minutes)
        for match in wave:
            reports.record_result(
                state, match, random_score(preset, match, rng), at, how="director", settle=False
            )
        progress.settle(state, at)
        played += 1
    return state
