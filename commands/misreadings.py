"""A refused line read again: what it more likely meant, said back as a line to send.

The binder refuses what does not fit a command's parameters without knowing the club:
here the refusal meets the club's tournaments and players. /tournament move with one
tournament is that one, named; /pause darek is darek's match; /report 3-1 bea is a
report against bea.
"""

from __future__ import annotations

from commands import resolver
from commands.params import as_typed
from commands.parsing import Parsed
from commands.session import Session, which_tournament
from tournament.model import Refused


def typed_again(parsed: Parsed, *, instead: dict[str, str] | None = None, also: str = "") -> str:
    """Return the line as typed (its words and options), with words replaced `instead`
    and `also` added at its end."""
    swap = instead or {}
    words = [f"/{parsed.name}", *(swap.get(w) or as_typed(w) for w in parsed.args)]
    words += [f"{key}:{as_typed(value)}" for key, value in parsed.options.items()]
    return " ".join([*words, also] if also else words)


async def named_tournaments(session: Session, refusal: Refused, parsed: Parsed) -> Refused:
    """Return a "say which tournament" refusal naming the club's open tournaments (the
    binder knows none: its example is "May Cup"); any other refusal as it is. With only
    one, the line to type again names it ("which tournament?" of one reads as a slip)."""
    if refusal.code != "which_tournament_required":
        return refusal
    listed = await session.uow.tournaments.list(session.club.id)
    names = [t.name for t in listed if not t.done]
    if len(names) == 1:
        line = typed_again(parsed, also=f"tournament:{as_typed(names[0])}")
        return Refused("name_the_tournament", tournament=names[0], command=line)
    return which_tournament(names) if names else refusal


async def trailing_opponent(
    session: Session, refusal: Refused, words: tuple[str, ...], command: str
) -> tuple[tuple[str, ...], str] | None:
    """Return a report's words less the name typed after its score, and that name, when
    it is the name of one of the reporter's opponents (/report 3-1 bea); else None, and
    the words stay refused with the usage line."""
    if refusal.code != "unexpected_words" or command not in ("report", "report game"):
        return None
    typed = str(refusal.params.get("words", ""))
    # The trailing words it is made of: a quoted name ("Rocío Pérez") is one word.
    count = next((k for k in range(1, len(words)) if " ".join(words[-k:]) == typed), 0)
    if not typed or not count:
        return None
    me = session.player
    try:
        named = await resolver.opponent_named(session, typed)
        state = await session.maybe_tournament()
    except Refused:
        return None
    if me is None or state is None:
        return None
    if not any(m.involves(named.id) for m in state.open_matches_of(me.id)):
        return None
    return words[:-count], typed


# A match's lateness clock or points, named by the late player: /pause darek.
_LATENESS_COMMANDS = frozenset({"pause", "resume", "cancel"})


async def match_of_player(
    session: Session, refusal: Refused, parsed: Parsed, command: str
) -> Refused:
    """Return, for /pause darek (a player where a match number goes), the line with the
    number of darek's match the command is about; any other refusal as it is."""
    if refusal.code != "bad_match_number" or command not in _LATENESS_COMMANDS:
        return refusal
    typed = str(refusal.params.get("text", ""))
    try:
        player = await resolver.find_player(session, typed)
        state = await session.maybe_tournament()
    except Refused:
        return refusal
    if state is None:
        return refusal
    if command == "cancel":
        penalised = {p.match for p in state.penalties.values() if not p.cancelled}
        matches = [m for m in state.matches_of(player.id) if m.number in penalised]
    else:
        started = [m for m in state.open_matches_of(player.id) if m.start is not None]
        matches = [m for m in started if m.start is not None and m.start <= session.now]
        if command == "resume":
            # The one whose clock stands: the player's match on now may be another.
            matches = [m for m in matches if m.pauses and m.pauses[-1].end is None]
    if not matches:
        return refusal
    number = str(matches[0].number)
    line = typed_again(parsed, instead={typed: number})
    return Refused("match_of_player", name=player.name, match=number, command=line)
