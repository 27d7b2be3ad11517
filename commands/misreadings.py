"""A refused line read again: what it more likely meant, said back as a line to send.

The binder refuses what does not fit a command's parameters without knowing the club:
here the refusal meets the club's tournaments and players. /tournament move with one
tournament is that one, named; /pause darek is darek's match; /report 3-1 bea is a
report against bea; /result 4 walkower is a forfeit, /present wszyscy everyone.
"""

from __future__ import annotations

from typing import Any

from commands import resolver
from commands.messages import Hint
from commands.params import Args, as_typed
from commands.parsing import Parsed
from commands.session import Session, which_tournament
from commands.words import ALL_WORDS, SAID_IN_LANGUAGES
from tournament.model import EntryStatus, Refused
from tournament.scoring import example_score


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
            matches = [m for m in matches if m.is_paused]
    if not matches:
        return refusal
    number = str(matches[0].number)
    line = typed_again(parsed, instead={typed: number})
    return Refused("match_of_player", name=player.name, match=number, command=line)


async def word_for_a_name(session: Session, refusal: Refused, args: Args, command: str) -> Refused:
    """Return, for a word no player is called where a name goes, what the word says:
    /result 4 walkower (a forfeit names who did not play), /present wszyscy (everyone:
    the line of those not marked yet); any other refusal as it is."""
    if refusal.code not in ("no_such_player", "no_such_player_close"):
        return refusal
    word = resolver.fold(str(refusal.params.get("name", "")))
    if command == "result" and word in _FORFEIT_WORDS:
        return await _forfeit_not_result(session, args.values.get("match"))
    if command == "result" and refusal.params.get("name") == args.values.get("player"):
        halved = await _half_a_score(session, args)
        if halved is not None:
            return halved
    if command == "present" and (word in ALL_WORDS or word == "all"):
        return await _not_here_yet(session)
    return refusal


_FORFEIT_WORDS = {word for word, meant in SAID_IN_LANGUAGES.items() if meant == "forfeit"} | {
    "forfeit",
    "wo",
}


async def _not_here_yet(s: Session) -> Refused:
    """Return the refusal of `/present all`: whoever is not here yet would no longer be
    late. The line that marks those not marked yet is offered, to send as it is or
    with the missing taken out."""
    state = await s.tournament()
    active = [e for e in state.entries.values() if e.status is EntryStatus.ACTIVE]
    if not active:
        return Refused("present_all_nobody", tournament=state.name)
    waiting = [e.player for e in active if not e.present_now()]
    if not waiting:
        return Refused("present_all_here", tournament=state.name)
    names = await s.names(waiting)
    line = "/present " + " ".join(as_typed(names[p]) for p in waiting)
    return Refused("present_all", command=Hint(line))


async def _half_a_score(s: Session, args: Args) -> Refused | None:
    """Return the refusal of a result whose score is one number (/result "Ann Lee" 3 bob,
    /result 1 3: read as a name nobody has), with the line written as it goes. None when
    no number, or more than one, stands in the name."""
    words = str(args.values.get("player", "")).split()
    at = [i for i, w in enumerate(words) if w.isdigit() and len(w) <= 2]
    if len(at) != 1:
        return None
    state = await s.tournament()
    won, lost = example_score(state.preset.game, state.preset.groups.match_length)
    half = words[at[0]]
    score = f"{half}-{lost if int(half) > lost else won}"
    before, after = " ".join(words[: at[0]]), " ".join(words[at[0] + 1 :])
    match = args.values.get("match")
    line = ["/result", *([str(match)] if match is not None else [])]
    line += [as_typed(before)] if before else []
    line += [score, *([as_typed(after)] if after else [])]
    key = "result_half_score" if before else "result_half_score_white"
    return Refused(key, score=half, command=Hint(" ".join(line)))


async def _forfeit_not_result(s: Session, number: Any) -> Refused:
    """Return the refusal of a forfeit typed as a result: /forfeit with the names of the
    match's players, either of whom may be the one who did not play."""
    state = await s.tournament()
    match = state.matches.get(int(number)) if number is not None else None
    players = [p for p in match.players if p is not None] if match is not None else []
    if len(players) != 2:
        return Refused("result_forfeit")
    names = await s.names(players)
    # The match named: a player's current match may be another (`/forfeit bob` alone).
    first, second = (
        Hint(f'/forfeit {as_typed(names[p])} match:{number} reason:"..."') for p in players
    )
    if match is not None and match.is_final:
        reopen = Hint(f"/reopen {number}")
        return Refused(
            "result_forfeit_match_final",
            match=int(number),
            first=first,
            second=second,
            reopen=reopen,
        )
    return Refused("result_forfeit_match", match=int(number), first=first, second=second)
