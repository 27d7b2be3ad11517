"""One command's session: who typed it, in which club, and what it changed.

A session loads lazily what a use case asks for (the club's current tournament, swept
up to now so every overdue effect is applied first), collects the events the rules
return, and on `finish` saves the tournament and turns events into outbox messages,
all in the unit of work's one transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from commands import announce, mentions, outgoing, quiet, web
from commands.announce import Notice
from commands.capabilities import bind
from commands.config import CommandConfig
from commands.notices import naming_the_bar
from commands.parsing import Parsed
from commands.ports import UnitOfWork
from commands.replies import Reply
from tournament import attendance, calendar, due, progress, sanctions
from tournament.calendar import Listed
from tournament.club import Club, Player
from tournament.events import (
    CheckinOpen,
    ConfirmReminder,
    Event,
    GroupsDrawn,
    SanctionRecorded,
    TournamentFinished,
)
from tournament.model import PlayerId, Refused, TournamentStatus
from tournament.sanctions import Sanction
from tournament.state import TournamentState


def _with_aside(reply: Reply) -> Reply:
    """Return the reply in its own words: its parts, then what only its sender reads."""
    return Reply(reply.parts + reply.aside, reply.buttons, reply.private, reply.secret)


# The actor of the rules' own effects in the audit log (a person's is "platform:id (name)").
AUTOMATIC = "clubtd"


@dataclass(frozen=True, slots=True)
class Invocation:
    """A command as a platform delivered it."""

    platform: str  # "console" | "telegram" | "discord"
    chat: str  # which club: its group (Telegram) or server (Discord); private: "user:<user>"
    user: str  # the platform's user id
    user_name: str  # the display name the platform shows
    text: str
    now: datetime  # aware UTC
    private: bool = False
    chat_admin: bool = False  # the platform says this user administers the chat
    update_id: str | None = None  # for deduplication of redelivered updates
    # Where to answer, when that is not `chat` itself: on Discord the club is the
    # server and the answer goes to the channel the command came from.
    channel: str | None = None
    # Sent on behalf of a chat (Telegram's sender_chat), not by a person: only the
    # group's own anonymous administrator is accepted, as a director and never a player.
    as_chat: bool = False
    # A button was pressed (not typed): a refusal is shown only to the presser.
    pressed: bool = False
    # The command already split into its values (Discord's typed options): bound as
    # given, never parsed again from `text` (which then only describes it, for logs).
    parsed: Parsed | None = None
    # The person's app language as the platform tells it (Discord's locale, Telegram's
    # language_code): what a reply speaks before any club or player says otherwise.
    locale: str | None = None


@dataclass
class Session:
    uow: UnitOfWork
    inv: Invocation
    config: CommandConfig
    club: Club
    is_director: bool
    player: Player | None
    writes: bool = True  # False: a look-up, which neither locks nor changes anything
    # A player's command: among several tournaments it could mean, the one the asker
    # is entered in (if only one) is meant. Not /register: it enters another one.
    own_first: bool = False
    # A command about the asker's own entry (/confirm, /me ...): when the next tournament
    # to start is not theirs, the one upcoming tournament they entered is meant.
    own_entry: bool = False
    events: list[Event] = field(default_factory=list)
    notices: list[Notice] = field(default_factory=list)
    audit: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    held: list[int] = field(default_factory=list)  # the outbox row the reply carries
    _tournament: TournamentState | None = None
    _chosen: int | None = None  # the tournament the command named (`tournament:`)
    _names: dict[PlayerId, str] = field(default_factory=dict)
    # Events before this index fell due as the command ran (the catch-up); the rest are
    # the command's own act, whose announcement can be its reply.
    _own_from: int = 0
    # The reply as the sender sees it, once `finish` decided it: the command's own
    # announcement to the chat it came from (then not posted there a second time), or
    # the handler's reply, with mentions written for the platform.
    answer: Reply | None = None
    # The answer says more than the announcement it carries (its aside): queued rather
    # than sent, it takes that announcement's place.
    says_more: bool = False
    # When the saved tournament next needs the scheduler (None: never): the caller re-arms
    # its alarm at this time instead of sweeping every tournament after every command.
    deadline: datetime | None = None

    @property
    def now(self) -> datetime:
        return self.inv.now

    @property
    def actor(self) -> str:
        return f"{self.inv.platform}:{self.inv.user} ({self.inv.user_name})"

    async def tournament(self) -> TournamentState:
        """Return the club's current tournament, caught up to now; refuse if none."""
        state = await self.maybe_tournament()
        if state is None:
            raise Refused("no_tournament")
        return state

    def choose(self, tournament_id: int) -> None:
        """Act on this tournament rather than the club's current one."""
        self._chosen = tournament_id

    @property
    def chosen(self) -> bool:
        """Whether the command named its tournament (`tournament:`)."""
        return self._chosen is not None

    def night_passed(self, tournament: Listed | TournamentState) -> bool:
        """Say whether a tournament's day went by on the club's clock without a draw."""
        return calendar.overdue(tournament, self.now, self.club.timezone)

    def again(self, line: str, state: TournamentState) -> str:
        """Return a line to confirm with, naming `state` when the command named it: typed or
        pressed later, a bare "/withdraw confirm" acts on the default tournament."""
        return f'{line} tournament:"{state.name}"' if self.chosen else line

    async def maybe_tournament(self) -> TournamentState | None:
        if self._tournament is None:
            chosen = self._chosen if self._chosen is not None else await self._meant()
            state = (
                None
                if chosen is None
                else await self.uow.tournaments.get(chosen, for_update=self.writes)
            )
            if state is not None and state.status is TournamentStatus.CANCELLED and self.writes:
                raise Refused("tournament_cancelled", tournament=state.name)
            if state is not None:
                await self.names(set(state.entries))  # one query for every name it needs
                if self.writes:
                    # Catch up first: a command acts on the state as of now. A look-up
                    # shows the stored state; the scheduler applies what is due.
                    self.events.extend(catch_up(self.uow, state, self.now))
                    self._own_from = len(self.events)
            self._tournament = state
        return self._tournament

    async def _meant(self) -> int | None:
        """Return the tournament a command means without naming one, or ask which."""
        listed = await self.uow.tournaments.list(self.club.id, for_update=self.writes)
        zone = self.club.timezone
        found = calendar.meant(listed, self.now, zone)
        if found.chosen is not None:
            # bob, in the afternoon's cup only, was told on the eve "you are not entered in
            # Morning: send /register", and entered the morning's by mistake.
            chosen = found.chosen
            if self.own_entry and calendar.entries_another_day(chosen, self.now, zone):
                entered = await self._entered()
                chosen = calendar.upcoming_entry(chosen, listed, entered, self.now, zone) or chosen
            return chosen.id
        if found.candidates:
            mine = (
                calendar.entered_among(found.candidates, await self._entered())
                if self.own_first
                else None
            )
            if mine is not None:
                return mine.id
            opened = await self._checkin_opened(found.candidates)
            if opened is not None:
                return opened
            raise which_tournament([t.name for t in found.candidates])
        return None

    async def _checkin_opened(self, candidates: Sequence[Listed]) -> int | None:
        """Return the one of `candidates` (the asker's, if they entered any) whose check-in
        is open now: a /checkin, /present or /draw at 09:30 is for the 10:00 cup, whose
        check-in opened at 9:00, not for the 18:00 one of the same day."""
        entered = await self._entered()
        pool = [t for t in candidates if t.id in entered] or list(candidates)
        opened = []
        for listed in pool:
            if attendance.checkin_open(await self.uow.tournaments.get(listed.id), self.now):
                opened.append(listed.id)
        return opened[0] if len(opened) == 1 else None

    async def _entered(self) -> set[int]:
        """Return the tournaments the asking player has an active entry in (none: not a
        player of the club)."""
        if self.player is None:
            return set()
        return set(await self.uow.tournaments.of_player(self.player.id, active=True))

    def adopt(self, state: TournamentState) -> None:
        """Make a newly created tournament the session's tournament."""
        self._tournament = state

    async def me(self) -> Player:
        """Return the invoking player; refuse someone the club does not know yet."""
        if self.player is None:
            # A director who types a player's command usually means to act for a player.
            raise Refused("director_not_player" if self.is_director else "not_a_player")
        return self.player

    def knows(self, player: Player) -> None:
        """Remember a player's display name for the session (one it just wrote)."""
        self._names[player.id] = player.name

    async def names(self, players: list[PlayerId] | set[PlayerId]) -> dict[PlayerId, str]:
        """Return display names of players, cached for the session."""
        known = self._names
        missing = [p for p in players if p not in known]
        if missing:
            known.update(await self.uow.players.names(missing))
            if any(p not in known for p in missing):
                return {p: known.get(p, f"#{p}") for p in players}
        # Everyone has a name: no stand-in formatted for each of them.
        return {p: known[p] for p in players}

    def bound(self, reply: Reply) -> Reply:
        """Return the reply with its buttons bound to this club and to the asker."""
        return bind(reply, self.club.id, self.inv.user)

    def notify(
        self,
        reply: Reply,
        *,
        player: PlayerId | None = None,
        coalesce: str | None = None,
        expires_at: datetime | None = None,
    ) -> None:
        """Queue a message of the command's own act, to the club's chats or a player."""
        self.notices.append(Notice(reply, player, coalesce, expires_at, answers=True))

    def log(self, action: str, **detail: Any) -> None:
        """Record a director's act or a notable change for the audit log."""
        self.audit.append((action, detail))

    def _announces_link(self) -> bool:
        """Return whether an announcement that carries the page's link is due (§6)."""
        return any(isinstance(e, GroupsDrawn | TournamentFinished) for e in self.events)

    async def _page_link(self, state: TournamentState) -> str | None:
        return await web.tournament_link(self.uow, self.config.web_url, self.club.id, state.id)

    async def next_tournament(self, after: datetime) -> Listed | None:
        """Return the club's first tournament to start after `after`, the one a
        suspension decided now bars from; None while it does not exist yet."""
        known = await self.uow.tournaments.list(self.club.id)
        applies_to = sanctions.next_tournament(after, [(t.id, t.start) for t in known if t.live])
        return next((t for t in known if t.id == applies_to), None)

    async def _barred_from(self, state: TournamentState) -> Listed | None:
        """Return the tournament the suspensions the rules decided bar from, once it
        exists (next month's, opened on this night); None when none is decided or known."""
        if not any(isinstance(e, SanctionRecorded) for e in self.events):
            return None
        return await self.next_tournament(state.start)

    async def _record_sanctions(self, state: TournamentState, barred: Listed | None) -> None:
        """Store the suspensions the rules decided (HGV-2.3.5, HGV-2.3.6)."""
        recorded = [e for e in self.events if isinstance(e, SanctionRecorded)]
        applies_to = barred.id if barred is not None else None
        for event in recorded:
            await self.uow.sanctions.add(
                self.club.id,
                Sanction(
                    id=0,
                    player=event.player,
                    reason=event.reason,
                    origin=state.id,
                    applies_to=applies_to,
                    created_at=event.at,
                    note=event.note,
                ),
            )

    async def finish(self, reply: Reply | None = None) -> None:
        """Save what changed and queue every message it causes; decide the `answer`.

        A reply marked `announced` is the command's own announcement where the chat it
        came from hears one: that announcement is still an outbox row (it must not be
        lost if the reply fails), held for the adapter (`held`), to be marked sent once
        the reply went out. Elsewhere the reply says it in its own words.
        """
        if reply is not None:
            reply = self.bound(reply)  # as the adapter will show it
            self.answer = _with_aside(reply)
        state = self._tournament if self.writes else None
        if state is not None:
            await self._save(state)
        await self.uow.audit.add_many(self._log_rows(state))
        await self._queue(state, reply)

    async def _save(self, state: TournamentState) -> None:
        """Turn the events into notices, save the tournament and what it decided."""
        names = await self.names(set(state.entries))
        link = await self._page_link(state) if self._announces_link() else None
        self.events = await self._reminding_only_who_may_play(state, self.events)
        self.events = progress.said_once(state, self.events, self.now)
        said = announce.notices(state, self.events, names, link=link, own_from=self._own_from)
        barred = await self._barred_from(state)
        if barred is not None:
            said = [naming_the_bar(notice, barred) for notice in said]
        self.notices = said + self.notices
        await self.uow.tournaments.save(state)
        self.deadline = due.next_deadline(state, self.uow.tournaments.deadline_memo(state))
        self.uow.tournaments.remember_deadline(state, self.deadline)
        await self._record_sanctions(state, barred)

    async def suspended_from(self, state: TournamentState) -> frozenset[PlayerId]:
        """Return the players an active suspension bars from `state` (HGV-2.3.6)."""
        return sanctions.barred_from(await self.uow.sanctions.for_club(self.club.id), state.id)

    async def _reminding_only_who_may_play(
        self, state: TournamentState, events: list[Event]
    ) -> list[Event]:
        """Return the events without the players a suspension bars from `state` in its
        reminders to confirm and to check in: an entry made before the suspension is
        not drawn (HGV-2.3.6), and its /confirm is refused."""
        reminders = (ConfirmReminder, CheckinOpen)
        if not any(isinstance(e, reminders) for e in events):
            return events
        barred = await self.suspended_from(state)
        if not barred:
            return events
        return [
            replace(e, players=tuple(p for p in e.players if p not in barred))
            if isinstance(e, reminders)
            else e
            for e in events
        ]

    def _log_rows(self, state: TournamentState | None) -> list[dict[str, Any]]:
        """Return the audit rows, saved in one statement: the rules' effects, then the
        people's acts."""
        tournament_id = state.id if state is not None else None
        effects = [
            (AUTOMATIC, type(event).__name__, announce.detail(event), event.at)
            for event in (self.events if state is not None else [])
            if announce.is_audited(event)
        ]
        acts = [(self.actor, action, detail, self.now) for action, detail in self.audit]
        return [
            {
                "club_id": self.club.id,
                "tournament_id": tournament_id,
                "actor": actor,
                "action": action,
                "detail": detail,
                "at": at,
            }
            for actor, action, detail, at in effects + acts
        ]

    async def _queue(self, state: TournamentState | None, reply: Reply | None) -> None:
        """Queue the notices for their audience; the one that is the reply is held."""
        registering = state is not None and quiet.registering(state)  # its board is edited
        chats = (
            await self.uow.clubs.chats(self.club.id)
            if registering or any(n.player is None for n in self.notices)
            else []
        )
        players = sorted({n.player for n in self.notices if n.player is not None})
        accounts = await self.uow.players.accounts_of(players) if players else {}
        languages = (
            {p: q.language for p, q in (await self.uow.players.many(players)).items()}
            if players
            else {}
        )
        # The chat platforms get the club's news gathered (commands/quiet.py): one post
        # per command and one live board; the console keeps one line per event. Only a
        # club with a Discord or Telegram chat pays for the gathering and the board.
        gathered: list[Notice] = []
        if state is not None and any(p in quiet.CHAT_PLATFORMS for p, _ in chats):
            gathered = quiet.gather(state, self.notices, await self.names(set(state.entries)))
        plan = [(n, False) for n in self.notices] + [(n, True) for n in gathered]
        # Mentions ping the accounts each platform knows (commands/mentions.py).
        told = [n.reply for n, _ in plan] + ([reply] if reply is not None else [])
        found = await mentions.lookup(self.uow, self.club.id, told, self.config.directors)
        if reply is not None and not reply.private and mentions.found([reply]):
            self.answer = _with_aside(mentions.address(reply, self.inv.platform, found))
        out = outgoing.rows(
            plan,
            outgoing.Audience(chats, accounts, languages),
            found,
            club_id=self.club.id,
            now=self.now,
            origin=(self.inv.platform, self.inv.chat),
            reply=reply,
        )
        if out.answer is not None:
            self.answer, self.says_more = out.answer, out.says_more
        ids = await self.uow.outbox.add_many(out.rows)
        self.held = [i for i, m in zip(ids, out.rows, strict=True) if m["held_until"]]


def catch_up(uow: UnitOfWork, state: TournamentState, now: datetime) -> list[Event]:
    """Apply what fell due by `now` (`due.sweep`), unless the command that saved the
    state worked out that nothing falls due before a later time."""
    return [] if quiet_until(uow, state, now) else due.sweep(state, now)


def quiet_until(
    uow: UnitOfWork, state: TournamentState, now: datetime
) -> tuple[datetime | None] | None:
    """Return `(next deadline,)` when the command that saved `state` found nothing due
    by `now` (`(None,)`: nothing waits at all); None when a sweep must find out."""
    known = uow.tournaments.known_deadline(state)
    if known is not None and (known[0] is None or known[0] > now):
        return known
    return None


def which_tournament(names: Sequence[str]) -> Refused:
    """Return the refusal that asks which of these tournaments a command means (buttons
    repeat the command naming each, where they are offered)."""
    return Refused(
        "which_tournament",
        choices=" · ".join(f'tournament:"{name}"' for name in names),
        _choices=tuple(names),
    )
