"""Resolve the names people type to the club's players and tournaments, forgivingly.

Case and accents do not matter, a unique beginning is enough (of the name or of any of
its words), the chat handle works as well as the display name, and several names may
be typed without quotes (`/approve eve frank`, `/approve Alice Moreno`), and a surname
cut to its initial (`Zofia K.`) stands for the whole one. When nothing fits, the refusal
names the closest names (difflib).
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from commands import tournament_names
from commands.names import abbreviates, instrumental_of
from commands.params import Args, Signature
from commands.session import Session
from tournament import folding
from tournament.club import Player
from tournament.model import Refused

fold = folding.loose  # how a typed name compares (one fold: tournament/folding.py)


@dataclass(frozen=True, slots=True)
class Known:
    """A player and the folded names they answer to: display name and chat handles."""

    player: Player
    names: tuple[str, ...]


class Roster:
    """The club's players, for matching what people type."""

    def __init__(self, known: Sequence[Known]) -> None:
        self.known = list(known)

    @classmethod
    async def of(cls, s: Session) -> Roster:
        players = await s.uow.players.all(s.club.id)
        accounts = await s.uow.players.accounts_of([p.id for p in players]) if players else {}
        known = []
        for player in players:
            handles = [user for _, user in accounts.get(player.id, []) if not user.isdigit()]
            names = dict.fromkeys(fold(n) for n in [player.name, *handles] if fold(n))
            known.append(Known(player, tuple(names)))
        return cls(known)

    def candidates(self, text: str) -> list[Player]:
        """Return the players `text` may mean: exactly, else by a beginning, else with a
        surname cut to its initial on either side."""
        wanted = fold(text)
        if not wanted:
            return []
        exact = [k.player for k in self.known if wanted in k.names]
        if exact:
            return _unique(exact)
        starts = [k.player for k in self.known if any(n.startswith(wanted) for n in k.names)]
        if starts:
            return _unique(starts)
        if " " not in wanted:
            words = [
                k.player
                for k in self.known
                if any(w.startswith(wanted) for n in k.names for w in n.split()[1:])
            ]
            return _unique(words)
        # "Zofia K." for "Zofia Kowalska", "Jorge Pérez" for the imported "Jorge P.".
        return _unique(
            [k.player for k in self.known if any(abbreviates(wanted, n) for n in k.names)]
        )

    def one(self, text: str) -> Player:
        """Return the one player `text` means, or refuse saying who it might be."""
        found = self.candidates(text)
        if len(found) == 1:
            return found[0]
        if found:
            raise Refused(
                "ambiguous_player", name=text, candidates=", ".join(sorted(p.name for p in found))
            )
        close = self.closest(text)
        if close:
            raise Refused("no_such_player_close", name=text, suggestions=", ".join(close))
        raise Refused("no_such_player", name=text)

    def several(self, typed: Sequence[str]) -> list[Player]:
        """Read several names from words, the longest name that fits first (within a run
        of `runs`); refuse the first that fits nobody, saying that the others found were
        left as they were."""
        out: list[Player] = []
        refusal: Refused | None = None
        for words in self.runs(typed):
            index = 0
            while index < len(words):
                found, end = self._longest_name(words, index)
                if found is None:
                    try:
                        self.one(words[index])
                    except Refused as why:
                        refusal = refusal or why
                elif found not in out:
                    out.append(found)
                index = end
        if refusal is None:
            return out
        if out and refusal.code in ("no_such_player", "no_such_player_close"):
            # One name of several wrong: the director must not think the others were done.
            others = ", ".join(p.name for p in out)
            raise Refused(refusal.code + "_of_several", others=others, **refusal.params)
        raise refusal

    def _longest_name(self, words: Sequence[str], index: int) -> tuple[Player | None, int]:
        """Return the player the longest name from `words[index]` fits, and where it ends;
        (None, the next word) when no name from there fits one player."""
        for end in range(len(words), index, -1):
            found = self.candidates(" ".join(words[index:end]))
            if len(found) == 1:
                return found[0], end
        return None, index + 1

    def runs(self, typed: Sequence[str]) -> list[list[str]]:
        """Return the typed words in runs no name crosses: a comma ends one ("Ion Popescu,
        Maria Stan"), and so does an "and" between two names ("Carmen y Rosa"), unless a
        player is called so. A quoted name (a word with a space in it, as `typed_names`
        marks a one-word one) stays one word."""
        runs: list[list[str]] = [[]]
        for index, token in enumerate(typed):
            quoted = " " in token
            for place, piece in enumerate(token.split(",")):
                if place:
                    runs.append([])
                text = piece.strip()
                if not text:
                    continue
                if quoted:
                    runs[-1].append(text if " " in text else f"{text} ")
                elif 0 < index < len(typed) - 1 and self._joins(text):
                    runs.append([])
                else:
                    runs[-1].append(text)
        return [run for run in runs if run]

    def _joins(self, word: str) -> bool:
        """Return whether `word`, between two names, is an "and", not a player's name."""
        wanted = fold(word)
        return (
            wanted in _AND_WORDS
            and word == word.lower()
            and not any(wanted in k.names for k in self.known)
        )

    def closest(self, text: str, limit: int = 3) -> list[str]:
        """Return the display names closest to `text`."""
        wanted = fold(text)
        by_fold: dict[str, str] = {}
        for k in self.known:
            for name in k.names:
                by_fold.setdefault(name, k.player.name)
        close = difflib.get_close_matches(wanted, list(by_fold), n=limit * 2, cutoff=0.5)
        return list(dict.fromkeys(by_fold[c] for c in close))[:limit]


# "and" in the clubs' languages (folded): Polish i, oraz; Romanian și; Spanish y, e.
_AND_WORDS = frozenset({"and", "&", "i", "oraz", "si", "y", "e"})


def _unique(players: list[Player]) -> list[Player]:
    return list({p.id: p for p in players}.values())


async def resolve(s: Session, signature: Signature, args: Args) -> Args:
    """Resolve the players and the tournament a command names; refuse what fits nobody."""
    values: dict[str, Any] = dict(args.values)
    typed: dict[str, Any] = {}
    roster: Roster | None = None
    for param in signature.params:
        given = values.get(param.name)
        if given is None:
            continue
        if param.type == "player":
            typed[param.name] = given
            roster = roster or await Roster.of(s)
            if isinstance(given, list):
                values[param.name] = tuple(roster.several(given))
            elif signature.path in _REPORTS and param.name == "vs":
                values[param.name] = (await opponent_named(s, given, roster),)
            else:
                values[param.name] = (roster.one(given),)
        elif param.type == "tournament":
            await choose_tournament(s, given)
    return replace(args, values=values, typed=typed)


_REPORTS = ("report", "report game")


async def opponent_named(s: Session, typed: str, roster: Roster | None = None) -> Player:
    """Return the player a report names as its opponent: a name as every command matches
    it, else the reporter's one opponent whose name it inflects (/wynik 3-1 z Markiem)."""
    roster = roster or await Roster.of(s)
    try:
        return roster.one(typed)
    except Refused as nobody:
        state = await s.maybe_tournament()  # the tournament the report is for
        me = s.player
        if me is None or state is None or " " in typed.strip():
            raise
        opponents = {p for m in state.open_matches_of(me.id) for p in m.players if p != me.id}
        meant = [
            k.player
            for k in roster.known
            if k.player.id in opponents and instrumental_of(typed, k.player.name)
        ]
        if len(meant) != 1:
            raise nobody from None
        return meant[0]


async def choose_tournament(s: Session, text: str) -> None:
    """Make the tournament `text` names the session's, or refuse with the club's list."""
    listed = await s.uow.tournaments.list(s.club.id)
    named = await tournament_names.named(s.uow.audit, s.club.id, listed, text)
    if named is not None:
        s.choose(named.id)
        return
    wanted = fold(text)
    names = [t.name for t in sorted(listed, key=lambda t: t.start)]
    close = difflib.get_close_matches(wanted, [fold(n) for n in names], n=3, cutoff=0.5)
    by_fold = {fold(n): n for n in names}
    raise Refused(
        "no_such_tournament",
        name=text,
        known=", ".join(by_fold[c] for c in close) or ", ".join(names[-5:]) or "-",
    )


async def find_player(s: Session, name: str) -> Player:
    """Return the player `name` means, matched as every command matches names.

    Prefer a `player` parameter, which the registry resolves before the handler runs.
    """
    return (await Roster.of(s)).one(name)
