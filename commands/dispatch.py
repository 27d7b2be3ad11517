"""Handle one command from any platform: parse, authorise, run, commit, reply.

No command may crash the bot: a refusal rolls everything back and becomes a reply that
says why and what to type instead; an unexpected error is logged and answered too.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, replace
from datetime import datetime

from commands import arguments, claims, joining, misreadings, resolver, views
from commands.capabilities import bind
from commands.config import CommandConfig
from commands.languages import language_of
from commands.params import as_typed, suggestions
from commands.parsing import Parsed, ParseError, copy_parsed, parse
from commands.ports import UnitOfWork, UnitOfWorkFactory
from commands.registry import BY_NAME, CommandSpec, bind_line, select
from commands.replies import (
    Button,
    Hint,
    Name,
    Reply,
    When,
    msg,
    on_the_day,
    refusal_params,
    say,
)
from commands.resolver import fold
from commands.session import Invocation, Session
from commands.words import ALSO_MEANT, YES_SAID, said_in_languages, without_phrase_tail
from tournament import folding
from tournament.club import Club
from tournament.model import Refused
from tournament.scoring import TIEBREAK_CODES, ScoreError

log = logging.getLogger("clubtd.commands")

MAX_BUTTON_TEXT = 200  # a typed command longer than this is not turned into buttons
# Refusals whose reply gives a tournament's start (and name) to copy: `example_start`.
STARTS_SUGGESTED = frozenset(
    {
        "bad_datetime",
        "no_tournament",
        "start_in_past",
        "start_required",
        "start_too_far",
        "tournament_name_required",
    }
)
CARRIED = 64  # bytes every platform's button carries itself (Telegram's callback data)
# Commands about the asker's own entry: they mean the tournament the asker entered.
OWN_ENTRY_COMMANDS = frozenset({"confirm", "checkin", "withdraw", "me", "schedule"})


@dataclass(frozen=True, slots=True)
class Response:
    """A reply and how to render it: the club's language and time zone."""

    reply: Reply
    language: str
    timezone: str
    club_id: int | None = None
    refused: bool = False  # nothing changed; the reply says why and what to type
    pictures: bool = True  # the club wants pictures where the chat can show them
    # The outbox row (the command's own announcement) this reply carries: the adapter
    # marks it sent once the reply went out in the command's chat, or releases it to the
    # outbox sender.
    held: tuple[int, ...] = ()
    # The next deadline of the tournament the command saved (None: it set none): the
    # scheduler re-arms at it rather than sweeping after every command.
    deadline: datetime | None = None
    # The platforms it queued rows for that `held` does not cover (the console drains
    # its outbox only when its own platform is among them).
    queued: frozenset[str] = frozenset()
    # The reply says more than the announcement it carries (what only its sender reads):
    # queued rather than sent, it takes that announcement's place.
    says_more: bool = False


def _bare_command(inv: Invocation) -> str | None:
    """Return a private line that begins with a command's word, without its slash
    ("confirm", "report 3-1"), as the command; else None."""
    text = inv.text.strip()
    if not inv.private or inv.parsed is not None or not text or text[0] in "/\uff0f":
        return None
    first = text.split(maxsplit=1)[0].lower().rstrip(".,;:!?")
    return "/" + text if first in BY_NAME else None


async def handle(
    inv: Invocation, *, uow_factory: UnitOfWorkFactory, config: CommandConfig
) -> Response | None:
    """Run one command; return the reply to show, or None when there is nothing to say."""
    # Until a club (or the person's own choice) says otherwise, the reply speaks the
    # language of their app: a newcomer's first DM is not answered in a stranger's.
    language = language_of(inv.locale) or config.default_language
    context = _Context(language, config.default_timezone, None, True)
    try:
        parsed = parse(inv.text) if inv.parsed is None else copy_parsed(inv.parsed)
    except ParseError as error:
        bare = _bare_command(inv) if error.code == "not_a_command" else None
        if bare is not None:
            # Written to the bot alone, "confirm" is /confirm: nothing else is said there.
            return await handle(replace(inv, text=bare), uow_factory=uow_factory, config=config)
        if error.code in ("not_a_command", "empty") and not inv.private:
            return None  # people chat in the club's group: not everything is for the bot
        if not await _first_delivery(inv, uow_factory, context):
            return None
        if error.code == "not_a_command" and fold(inv.text.strip(" .!")) in YES_SAID:
            # "Sí" to the bot's question: the commands that answer it, a tap each.
            answers = (
                Button(msg("button.confirm"), "/confirm"),
                Button(msg("button.accept"), "/accept"),
            )
            reply = await _tappable(say("parse.yes_in_private"), answers, inv, uow_factory)
            return _response(reply, context, refused=True)
        return _response(say(f"parse.{error.code}"), context, refused=True)
    spec = BY_NAME.get(parsed.name)
    if spec is None:
        if not await _first_delivery(inv, uow_factory, context):
            return None
        rest = inv.text.split(maxsplit=1)[1:]
        said = said_in_languages(fold(parsed.name), "".join(rest))
        close = [said] if said else suggestions(parsed.name, list(BY_NAME))
        if close:
            # The whole line as meant (/reportar 3-1: "/report 3-1"), ready to type again.
            if said:
                rest = [without_phrase_tail(fold(parsed.name), r) for r in rest]
            meant = " ".join([close[0], *(" ".join(r.split()) for r in rest if r.strip())])
            other = ALSO_MEANT.get(fold(parsed.name)) if said else None
            if other is not None:
                reply = say(
                    "unknown_command_either", name=parsed.name, suggestion=meant, other=other
                )
            else:
                reply = say("unknown_command_close", name=parsed.name, suggestion=meant)
                # The line meant, one tap on a phone rather than typed again.
                meant_button = (Button(msg("button.yes"), f"/{meant}"),)
                reply = await _tappable(reply, meant_button, inv, uow_factory, context)
        else:
            reply = say("unknown_command", name=parsed.name)
        return _response(reply, context, refused=True)
    if inv.as_chat and not inv.chat_admin:
        # Someone posting as a channel or another chat: no person to hold to account.
        return _response(say("refused.post_as_yourself"), context, refused=True)
    target, words = select(spec, parsed)
    # Any command may name its club (`club:7` on buttons, `club:"HG Backgammon"` typed):
    # a private chat has no club of its own. It is read here, not by the binder.
    club_hint = parsed.options.pop("club", None)
    # A button names whom it is for (`for:<account>`, bound by the session): pressed by
    # anyone else it is refused before anything is opened. Typed, it only restricts.
    owner = parsed.options.pop("for", None)
    try:
        # A look-up takes no write lock (SQLite: DEFERRED); remembering its update id
        # is its only write, made first. A report goes first without locks (where they
        # cost round trips): when it wrote more than its one row, or its tournament
        # changed meanwhile, it wrote nothing and runs again, locked.
        lock_free = target.lock_free and target.writes
        asked = _Asked(spec, target, words, parsed, club_hint, owner)
        while True:
            uow = uow_factory(read_only=not target.writes, lock_free=lock_free)
            try:
                async with uow:
                    return await _run(uow, inv, config, asked, context)
            except Exception:
                if not (lock_free and uow.must_retry_locked):
                    raise
                log.debug("%s: lock-free, it wrote nothing; again, locked", target.name)
                lock_free = False
    except Refused as said:
        refusal = on_the_day(said, inv.now, context.timezone)
        params = dict(refusal.params)
        usage = params.get("usage")
        if isinstance(usage, str):
            params["usage"] = arguments.dated(usage, inv.now, context.timezone)
        if refusal.code in STARTS_SUGGESTED:
            # A start to copy: a fixed date in the catalog would one day be in the past.
            at = arguments.suggested_start(inv.now, context.timezone)
            params |= {"example_start": f"{at:%Y-%m-%d %H:%M}", "example_month": When(at, "month")}
        reply = Reply(
            (msg(f"refused.{refusal.code}", **refusal_params(params)),),
            _choice_buttons(inv, parsed, club_hint, target.writes, refusal, context.club_id),
        )
    except ScoreError as error:
        # A report's hint shows the match's own length when the use case knows it.
        # A level match, or a tiebreak phase that does not add up: the line itself says
        # what to send (the same scores, that phase as it could be); a second example
        # of the main score alone would contradict it.
        level = error.code in TIEBREAK_CODES
        fallback = views.with_tiebreak("/report", [(2, 2)]) if level else "/report 3-1"
        example = str(error.params.get("example", fallback))
        usage = str(error.params.get("_usage", "score.usage"))  # a director's: /result
        stated = msg(
            f"score.{error.code}", **refusal_params({**error.params, "example": Hint(example)})
        )
        hint = () if level else (msg(usage, example=Hint(example)),)
        reply = Reply((stated, *hint))
    except Exception:
        log.exception("command failed: %r from %s:%s", inv.text, inv.platform, inv.user)
        reply = say("internal_error")
    if inv.pressed:
        # A refused button press is said to the presser alone, never to the group.
        reply = replace(reply, private=True)
    if not await _remember_refused(inv, uow_factory):
        return None  # a redelivery a lock-free attempt ran before it could tell
    return _response(reply, context, refused=True)


@dataclass
class _Context:
    language: str
    timezone: str
    club_id: int | None
    pictures: bool

    def use(self, club: Club) -> None:
        self.language, self.timezone, self.club_id = club.language, club.timezone, club.id
        self.pictures = club.pictures


async def _tappable(
    reply: Reply,
    buttons: tuple[Button, ...],
    inv: Invocation,
    uow_factory: UnitOfWorkFactory,
    context: _Context | None = None,
) -> Reply:
    """Return the reply with `buttons`, bound to the person who typed and to their club
    (docs/SECURITY.md): the chat's, or written privately their one club. Someone in no
    club or in several gets the reply without them."""
    club_id = None if context is None or inv.private else context.club_id
    if inv.private:
        async with uow_factory(read_only=True) as uow:
            clubs = await uow.clubs.for_account(inv.platform, inv.user)
        club_id = clubs[0].id if len(clubs) == 1 else None
    if club_id is None:
        return reply
    return bind(replace(reply, buttons=buttons), club_id, inv.user)


def _response(
    reply: Reply,
    context: _Context,
    *,
    refused: bool = False,
    held: tuple[int, ...] = (),
    says_more: bool = False,
    deadline: datetime | None = None,
    queued: frozenset[str] = frozenset(),
) -> Response:
    return Response(
        reply,
        context.language,
        context.timezone,
        context.club_id,
        refused,
        context.pictures,
        held,
        deadline,
        queued,
        says_more,
    )


@dataclass(frozen=True, slots=True)
class _Asked:
    """What a line asks for, read once: run again as it is when a lock-free try gave up."""

    spec: CommandSpec
    target: CommandSpec  # the subcommand, or the command itself
    words: tuple[str, ...]
    parsed: Parsed
    club_hint: str | None  # `club:` on a button or a line
    owner: str | None  # `for:` on a button: whom it is for


async def _run(
    uow: UnitOfWork, inv: Invocation, config: CommandConfig, asked: _Asked, context: _Context
) -> Response | None:
    """Run the command in `uow` and commit; return its response (None: a redelivery)."""
    spec, target, words, parsed = asked.spec, asked.target, asked.words, asked.parsed
    club_hint, owner = asked.club_hint, asked.owner
    if inv.update_id and not await uow.updates.remember(inv.platform, inv.update_id, inv.now):
        return None  # a redelivered update: it was handled once already
    if owner is not None and owner != inv.user:
        await _use_club_of(uow, inv, club_hint, context)  # its language
        raise Refused("button_not_yours")
    held: tuple[int, ...] = ()
    says_more = False
    deadline: datetime | None = None
    if target.scope == "chat":
        # It acts on the chat before a club is opened there (/club join CODE).
        await _speak_as_known(uow, inv, context)
        reply = await joining.club_join(
            uow, inv, config, bind_line(target, words, parsed), context.use
        )
    else:
        # A claim code names its club: privately, a newcomer has no club yet.
        code = parsed.option("claim") if spec.name == "register" else None
        claiming = claims.club_of(code)
        session = await _open(
            uow, inv, config, target, context, club_hint, claiming, code_typed=bool(code)
        )
        try:
            args = bind_line(target, words, parsed)
        except Refused as refusal:
            against = await misreadings.trailing_opponent(session, refusal, words, target.name)
            if against is None:
                refusal = await misreadings.named_tournaments(session, refusal, parsed)
                raise await misreadings.match_of_player(
                    session, refusal, parsed, target.name
                ) from None
            # /report 3-1 bea: the name after the score is the opponent (vs:bea).
            words, parsed = against[0], Parsed(parsed.name, parsed.args, dict(parsed.options))
            parsed.options["vs"] = against[1]
            args = bind_line(target, words, parsed)
        try:
            args = await resolver.resolve(session, target.signature, args)
        except Refused as refusal:
            raise await misreadings.word_for_a_name(session, refusal, args, target.name) from None
        assert target.handler is not None  # only "chat" commands have none
        reply = await target.handler(session, args)
        await session.finish(reply)
        # /club language:es is confirmed in Spanish: the club as it is now.
        context.use(session.club)
        held = tuple(session.held)
        says_more = session.says_more
        deadline = session.deadline
        reply = session.answer if session.answer is not None else session.bound(reply)
        if inv.private and session.player is not None and session.player.language:
            context.language = session.player.language  # their own language
    await uow.commit()
    queued = uow.outbox.queued
    return _response(
        reply, context, held=held, says_more=says_more, deadline=deadline, queued=queued
    )


async def _first_delivery(
    inv: Invocation, uow_factory: UnitOfWorkFactory, context: _Context | None = None
) -> bool:
    """Remember an update refused before any club is opened; False when seen before.

    With a `context`, the chat's club (if it has one) gives the refusal its language.
    """
    async with uow_factory() as uow:
        first = True
        if inv.update_id:
            first = await uow.updates.remember(inv.platform, inv.update_id, inv.now)
        if context is not None and not inv.private:
            club = await uow.clubs.for_chat(inv.platform, inv.chat)
            if club is not None:
                context.use(club)
        await uow.commit()
    return first


async def _remember_refused(inv: Invocation, uow_factory: UnitOfWorkFactory) -> bool:
    """Remember a refused update too, so a redelivery is not answered twice; return
    False when it was seen before (a lock-free command learns that only now)."""
    if not inv.update_id:
        return True
    try:
        async with uow_factory() as uow:
            first = await uow.updates.remember(inv.platform, inv.update_id, inv.now)
            await uow.commit()
    except Exception:
        log.exception("could not record update %s", inv.update_id)
        return True
    return first


async def _open(
    uow: UnitOfWork,
    inv: Invocation,
    config: CommandConfig,
    spec: CommandSpec,
    context: _Context,
    club_hint: str | None = None,
    claiming: int | None = None,
    *,
    code_typed: bool = False,
) -> Session:
    configured = (inv.platform, inv.user) in config.directors
    club = await _club(uow, inv, club_hint, configured, claiming, listing=spec.writes)
    if club is None and not inv.private:
        waiting = await uow.clubs.pending_for_chat(inv.platform, inv.chat)
        if waiting is not None:
            # Joined with a code, not confirmed yet: nothing happens here until then.
            context.use(waiting)
            raise Refused("join_pending", club=waiting.name)
    if club is None:
        if inv.private:
            # A claim code that names no club is mistyped: "register in your club's
            # group first" would send its person away from the one way in.
            raise Refused("bad_claim_code" if code_typed else "dm_no_club")
        if not (inv.chat_admin or configured):
            raise Refused("no_club_here")
        # INTERFACE 5: a chat becomes a club the first time a director uses a command there.
        club = await uow.clubs.add(
            config.default_club_name, config.default_timezone, config.default_language, inv.now
        )
        await uow.clubs.link_chat(club.id, inv.platform, inv.chat)
    context.use(club)
    if not inv.private and club_hint is not None and not _names(club, club_hint):
        # A button (or a line) naming another club acts nowhere but in that club.
        raise Refused("other_club", club=club.name)
    # Rights are never copied into the database as a side effect: chat admins' follow
    # the chat, CLUBTD_DIRECTORS is read as configured now, and stored rights come only
    # from an explicit, logged /director add.
    stored = await uow.clubs.is_director(club.id, inv.platform, inv.user)
    is_director = (inv.chat_admin and not inv.private) or configured or stored
    if spec.role == "director" and not is_director:
        raise Refused("directors_only", command=spec.name)
    if inv.as_chat and spec.role == "player" and spec.writes:
        # The group's anonymous admin is a director; as a player it would be one account
        # shared by whoever administers the group.
        raise Refused("as_chat_not_player", command=spec.name)
    player = None if inv.as_chat else await uow.players.by_account(club.id, inv.platform, inv.user)
    return Session(
        uow=uow,
        inv=inv,
        config=config,
        club=club,
        is_director=is_director,
        player=player,
        writes=spec.writes,
        own_first=spec.role == "player" and spec.name != "register",
        own_entry=spec.name in OWN_ENTRY_COMMANDS,
    )


async def _club(
    uow: UnitOfWork,
    inv: Invocation,
    hint: str | None,
    configured: bool = False,
    claiming: int | None = None,
    *,
    listing: bool = False,
) -> Club | None:
    """Return the club a command acts on: the chat's; privately, the one named, or the
    person's only club. Someone in several clubs is asked which, never given the first.
    A director from CLUBTD_DIRECTORS may name any club by its id (a button does), and so
    may a claim code (`claiming`: the club it was issued in), checked by the use case."""
    if not inv.private:
        # A writing command reads (and locks) the club's tournaments in the same round
        # trip: it lists them next to find the one it means.
        return await uow.clubs.for_chat(inv.platform, inv.chat, listing=listing)
    clubs = await uow.clubs.for_account(inv.platform, inv.user)
    if hint is None and claiming is not None:
        hint = str(claiming)
    if hint is not None:
        for club in clubs:
            if _names(club, hint):
                return club
        by_id = configured or hint.strip() == str(claiming)
        if by_id and re.fullmatch(r"[0-9]{1,9}", hint.strip()):
            try:
                return await uow.clubs.get(int(hint))
            except LookupError:
                pass
        raise Refused("no_such_club", name=hint, clubs=_club_names(clubs))
    if len(clubs) > 1:
        raise Refused("which_club", clubs=_club_names(clubs), example=clubs[0].name)
    return clubs[0] if clubs else None


async def _use_club_of(
    uow: UnitOfWork, inv: Invocation, hint: str | None, context: _Context
) -> None:
    """Answer in the language of the club a command is for, when it is known."""
    try:
        club = await _club(uow, inv, hint)
    except Refused:
        return
    if club is not None:
        context.use(club)


def _names(club: Club, hint: str) -> bool:
    """Return whether `club:` names this club, by its id or its whole name."""
    wanted = folding.key(hint)
    return wanted in (str(club.id), folding.key(club.name))


def _club_names(clubs: list[Club]) -> str:
    return ", ".join(club.name for club in clubs) or "-"


async def _speak_as_known(uow: UnitOfWork, inv: Invocation, context: _Context) -> None:
    """Answer a command that comes before any club in the language already known here:
    this chat's club, else the club the person belongs to (a Spanish club's director
    joining a new chat reads Spanish, refusals included)."""
    club = await uow.clubs.for_chat(inv.platform, inv.chat)
    if club is not None:
        context.use(club)
        return
    club = await uow.clubs.pending_for_chat(inv.platform, inv.chat)
    if club is None:
        known = await uow.clubs.for_account(inv.platform, inv.user)
        club = known[0] if known else None
    if club is not None:
        context.language, context.timezone = club.language, club.timezone


def _choice_buttons(
    inv: Invocation,
    parsed: Parsed,
    club: str | None,
    writes: bool,
    refusal: Refused,
    club_id: int | None,
) -> tuple[Button, ...]:
    """Return a button per tournament a "which tournament?" refusal offers: the same
    command again, naming that tournament.

    A look-up's buttons are open to whoever taps them; a command that changes something
    is offered only privately, bound to the asker, and never in a group.
    """
    names = refusal.params.get("_choices")
    if refusal.code != "which_tournament" or not isinstance(names, tuple):
        return ()
    if writes and not inv.private:
        return ()
    # Built again from the parsed line (never the raw text), with what it said; a
    # private chat's buttons name their club.
    text = misreadings.typed_again(parsed, also="" if club is None else f"club:{as_typed(club)}")
    if len(text) > MAX_BUTTON_TEXT or any(
        '"' in w for w in (*parsed.args, *parsed.options.values())
    ):
        return ()
    buttons = tuple(
        Button(
            msg("button.tournament", tournament=Name(name)),
            f'{text} tournament:"{name}"',
            open=not writes,
        )
        for name in names
        if '"' not in name
    )
    reply = Reply((), buttons)
    bound = (reply if club_id is None else bind(reply, club_id, inv.user)).buttons
    # They repeat typed words: a button no platform carries itself would be stored as a
    # token (typed text in the database), so it is not offered; the reply says what to type.
    return tuple(b for b in bound if len(b.command.encode()) <= CARRIED)
