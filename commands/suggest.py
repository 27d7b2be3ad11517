"""Suggestions for what a person is typing in a command option (Discord's autocomplete).

Read-only look-ups: the players of the club's current tournament, the presets, the
open matches, and the asker's own open matches; each as (label, value) pairs, the
value being what the command line expects.
"""

from __future__ import annotations

from dataclasses import dataclass

from commands.ports import UnitOfWorkFactory
from tournament.folding import loose as fold
from tournament.preset import preset_names
from tournament.state import TournamentState

LIMIT = 25  # Discord shows at most 25 choices


@dataclass(frozen=True, slots=True)
class Asker:
    """Who is typing, where (`chat` is the club's chat key, as in an Invocation)."""

    platform: str
    chat: str
    user: str
    private: bool = False
    club: str | None = None  # the `club` option chosen so far (a private chat)


def _matching(pairs: list[tuple[str, str]], typed: str) -> list[tuple[str, str]]:
    wanted = fold(typed.strip())
    starts = [p for p in pairs if fold(p[0]).startswith(wanted)]
    inside = [p for p in pairs if wanted in fold(p[0]) and p not in starts]
    return (starts + inside)[:LIMIT]


def presets(typed: str) -> list[tuple[str, str]]:
    return _matching([(name, name) for name in preset_names()], typed)


async def suggest(
    kind: str, typed: str, asker: Asker, *, uow_factory: UnitOfWorkFactory
) -> list[tuple[str, str]]:
    """Return up to 25 (label, value) suggestions of `kind` for what was typed so far."""
    if kind == "preset":
        return presets(typed)
    async with uow_factory() as uow:
        if asker.private:
            clubs = await uow.clubs.for_account(asker.platform, asker.user)
            if kind == "club":
                return _matching([(c.name, str(c.id)) for c in clubs], typed)
            # The club the person chose, or their only one: never the oldest of several.
            wanted = fold(" ".join((asker.club or "").split()))
            named = [c for c in clubs if wanted in (str(c.id), fold(" ".join(c.name.split())))]
            club = named[0] if named else (clubs[0] if len(clubs) == 1 else None)
        else:
            club = await uow.clubs.for_chat(asker.platform, asker.chat)
            if kind == "club":
                return [] if club is None else _matching([(club.name, str(club.id))], typed)
        if club is None:
            return []
        if kind == "tournament":
            listed = await uow.tournaments.list(club.id)
            open_ = [(t.name, t.name) for t in listed if t.status != "finished"]
            return _matching(open_, typed)
        state = await uow.tournaments.current(club.id)
        if state is None:
            return []
        names = await uow.players.names(list(state.entries))
        me = await uow.players.by_account(club.id, asker.platform, asker.user)
    if kind == "player":
        return _matching(sorted(((n, n) for n in names.values()), key=lambda p: fold(p[0])), typed)
    if kind in ("match", "my_match"):
        mine = me.id if me is not None and kind == "my_match" else None
        return _matching(_open_matches(state, names, mine), typed)
    return []


def _open_matches(
    state: TournamentState, names: dict[int, str], player: int | None
) -> list[tuple[str, str]]:
    found = []
    for number, match in sorted(state.matches.items()):
        if match.status.is_final or match.white is None or match.black is None:
            continue
        if player is not None and player not in (match.white, match.black):
            continue
        white, black = names.get(match.white, "?"), names.get(match.black, "?")
        found.append((f"{number}: {white} – {black}", str(number)))
    return found
