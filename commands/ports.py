"""What the use cases need from storage, as structural protocols.

`storage/` implements these without importing this module (the layers forbid it);
structural typing checks the fit. Values crossing the boundary are `tournament/` types
or plain data.
"""

from __future__ import annotations

import builtins
from collections.abc import Mapping, Sequence
from datetime import date, datetime
from decimal import Decimal
from types import TracebackType
from typing import Any, Protocol, Self

from tournament.calendar import Listed
from tournament.club import Club, Player
from tournament.ranking import TournamentRecord
from tournament.sanctions import Sanction
from tournament.state import TournamentState


class ClubRepository(Protocol):
    async def for_chat(self, platform: str, chat: str, *, listing: bool = False) -> Club | None:
        """Return the chat's club; with `listing` (a writing command's), read its
        tournaments in the same round trip, locked until commit, for `tournaments.list`."""
        ...

    async def for_account(self, platform: str, external_id: str) -> list[Club]:
        """Return the clubs where this chat account is a player or a director, oldest
        first."""
        ...

    async def all(self) -> list[Club]:
        """Return every club of the database, oldest first."""
        ...

    async def get(self, club_id: int) -> Club: ...
    async def add(self, name: str, timezone: str, language: str, now: datetime) -> Club: ...
    async def save(self, club: Club) -> None: ...
    async def pending_for_chat(self, platform: str, chat: str) -> Club | None:
        """Return the club this chat asked to join and waits to be confirmed by."""
        ...

    async def link_chat(
        self, club_id: int, platform: str, chat: str, *, pending: bool = False
    ) -> None: ...
    async def confirm_chat(self, club_id: int, link_id: int) -> tuple[str, str] | None:
        """Activate a pending link of this club; return its (platform, chat), or None."""
        ...

    async def pending_chats(self, club_id: int) -> list[tuple[int, str, str]]: ...
    async def move_chat(self, platform: str, old: str, new: str) -> int | None:
        """Follow a chat whose id changed; return its club, if any."""
        ...

    async def chats(self, club_id: int) -> list[tuple[str, str]]:
        """Return the chats the club's announcements go to (confirmed links only)."""
        ...

    async def add_link_code(
        self, club_id: int, code: str, expires_at: datetime, *, created_by: str = ""
    ) -> None: ...
    async def redeem_link_code(self, code: str, now: datetime) -> int | None:
        """Return the club of an unexpired, unused code and mark it used."""
        ...

    async def add_director(self, club_id: int, platform: str, external_id: str) -> None: ...
    async def remove_director(self, club_id: int, platform: str, external_id: str) -> bool: ...
    async def directors(self, club_id: int) -> list[tuple[str, str]]: ...
    async def is_director(self, club_id: int, platform: str, external_id: str) -> bool: ...
    async def web_token(self, club_id: int) -> str | None:
        """Return the secret of the club's public pages (INTERFACE §6), None while off."""
        ...

    async def set_web_token(self, club_id: int, token: str | None) -> None: ...
    async def by_web_token(self, token: str) -> Club | None: ...


class PlayerRepository(Protocol):
    async def lock_names(self, club_id: int) -> None:
        """Hold the club's names until the transaction ends: a look-alike check and the
        insert it allows are then one step (a unique index cannot compare skeletons)."""
        ...

    async def get(self, player_id: int) -> Player: ...
    async def many(self, player_ids: Sequence[int]) -> dict[int, Player]: ...
    async def names(self, player_ids: Sequence[int]) -> dict[int, str]:
        """Return the names of players (those that exist), without copying each player."""
        ...

    async def by_account(self, club_id: int, platform: str, external_id: str) -> Player | None: ...
    async def by_name(self, club_id: int, name: str) -> list[Player]:
        """Return the club's players whose name matches, ignoring case and spacing."""
        ...

    async def all(self, club_id: int) -> list[Player]: ...
    async def add(
        self,
        club_id: int,
        name: str,
        now: datetime,
        *,
        born: date | None = None,
        member: bool = True,
    ) -> Player: ...
    async def save(self, player: Player) -> None: ...
    async def add_account(self, player_id: int, platform: str, external_id: str) -> None: ...
    async def merge(self, old: int, new: int) -> None:
        """Move `old`'s accounts, sanctions and imported points to `new`; delete `old`."""
        ...

    async def accounts(self, player_id: int) -> list[tuple[str, str]]: ...
    async def accounts_of(self, player_ids: Sequence[int]) -> dict[int, list[tuple[str, str]]]:
        """Return the chat accounts of several players at once."""
        ...


class TournamentRepository(Protocol):
    async def add(
        self, club_id: int, state: TournamentState, overrides: Mapping[str, str]
    ) -> TournamentState:
        """Store a new tournament; return it with its id set."""
        ...

    async def get(self, tournament_id: int, *, for_update: bool = False) -> TournamentState:
        """Load a tournament; `for_update` locks it until commit (PostgreSQL)."""
        ...

    async def current(self, club_id: int, *, for_update: bool = False) -> TournamentState | None:
        """Return the club's tournament in play, else the latest one open for entries,
        else the latest finished one."""
        ...

    async def by_name(self, club_id: int, name: str) -> TournamentState | None: ...
    async def list(self, club_id: int, *, for_update: bool = False) -> builtins.list[Listed]:
        """Return every tournament of the club as a typed row, by start; `for_update`
        locks them until commit."""
        ...

    async def save(self, state: TournamentState) -> None:
        """Write what changed since the state was loaded or added."""
        ...

    def known_deadline(self, state: TournamentState) -> tuple[datetime | None] | None:
        """Return when the next action of `state`, as loaded, falls due, if remembered
        from the command that saved it: `(when,)`, `(None,)` when nothing waits, or
        None when it is not known (then sweep to find out)."""
        ...

    def remember_deadline(self, state: TournamentState, deadline: datetime | None) -> None:
        """Remember the next deadline of `state` as just saved, for the next command."""
        ...

    def deadline_memo(self, state: TournamentState) -> dict[int, datetime | None]:
        """Return the memo `tournament.due.next_deadline` keeps for `state` as just saved:
        each live match's first due time, for the matches unchanged since it was filled."""
        ...

    async def of_player(self, player_id: int, *, active: bool = False) -> builtins.list[int]:
        """Return the ids of the tournaments the player has an entry in (`active`: an
        entry still active: not withdrawn, a no-show or removed)."""
        ...

    async def unfinished(self) -> builtins.list[tuple[int, int]]:
        """Return (tournament id, club id) of every tournament not finished yet."""
        ...

    async def records(self, club_id: int) -> builtins.list[TournamentRecord]:
        """Return every finished tournament's ranking contribution, oldest first."""
        ...

    async def overrides(self, tournament_id: int) -> dict[str, str]: ...
    async def club_of(self, tournament_id: int) -> int: ...


class SanctionRepository(Protocol):
    async def for_club(self, club_id: int) -> list[Sanction]: ...
    async def add(self, club_id: int, sanction: Sanction) -> Sanction:
        """Store a new sanction; return it with its id set."""
        ...

    async def save(self, sanction: Sanction) -> None: ...


class RankingRepository(Protocol):
    async def imported(
        self, club_id: int, game: str = "backgammon", *, year: int | None = None
    ) -> list[tuple[int, Decimal]]:
        """Return a game's imported ranking, best first: (player id, points); with
        `year`, only when it was imported that year."""
        ...

    async def imported_games(self, club_id: int) -> list[str]: ...
    async def imported_year(self, club_id: int, game: str) -> int | None:
        """Return the year a game's ranking was imported in (None: none, or undated)."""
        ...

    async def replace_imported(
        self,
        club_id: int,
        rows: Sequence[tuple[int, Decimal]],
        game: str = "backgammon",
        at: datetime | None = None,
    ) -> None: ...


class Outbox(Protocol):
    async def add(
        self,
        *,
        club_id: int,
        platform: str,
        chat: str,
        payload: Mapping[str, Any],
        created_at: datetime,
        coalesce: str | None = None,
        expires_at: datetime | None = None,
    ) -> None:
        """Queue a message for a chat; a newer row with the same `coalesce` key
        supersedes an unsent older one (the sender edits one live message)."""
        ...

    async def add_many(self, messages: Sequence[Mapping[str, Any]]) -> list[int]:
        """Queue several messages, each given as the keyword arguments of `add` (plus
        `held_until`: leased to the adapter whose reply carries it); return their ids."""
        ...

    @property
    def queued(self) -> frozenset[str]:
        """Return the platforms this unit of work queued rows for that no reply holds."""
        ...


class AuditLog(Protocol):
    async def add(
        self,
        *,
        club_id: int | None,
        tournament_id: int | None,
        actor: str,
        action: str,
        detail: Mapping[str, Any],
        at: datetime,
    ) -> None: ...
    async def add_many(self, entries: Sequence[Mapping[str, Any]]) -> None:
        """Log several entries, each given as the keyword arguments of `add`."""
        ...

    async def count(self, *, action: str, actor: str, since: datetime) -> int:
        """Return how many entries of `action` by exactly `actor` were logged since then."""
        ...

    async def former_names(self, club_id: int) -> list[tuple[int, str]]:
        """Return the names the club's tournaments were renamed from, (tournament id, name),
        oldest first."""
        ...

    async def acts(
        self, tournament_id: int, *, limit: int, not_by: str | None = None
    ) -> list[tuple[str, str, dict[str, Any], datetime]]:
        """Return the entries logged for a tournament, (actor, action, detail, at), but
        those of `not_by` (the rules' own effects) if given: the newest `limit`, oldest
        first."""
        ...


class ProcessedUpdates(Protocol):
    async def remember(self, platform: str, update_id: str, at: datetime) -> bool:
        """Record a platform update id; return False if it was already processed."""
        ...

    async def forget_before(self, moment: datetime) -> int:
        """Delete the ids recorded before `moment`; return how many."""
        ...


class Housekeeping(Protocol):
    async def prune(self, now: datetime) -> dict[str, int]:
        """Delete what the retention periods no longer keep; count it by kind."""
        ...


class Meta(Protocol):
    async def get(self, key: str) -> str | None: ...
    async def set(self, key: str, value: str) -> None: ...
    async def starting(self, prefix: str) -> dict[str, str]:
        """Return every key beginning with `prefix`, with its value."""
        ...


class UnitOfWork(Protocol):
    """One transaction; on SQLite writes begin IMMEDIATE, on PostgreSQL rows lock."""

    @property
    def clubs(self) -> ClubRepository: ...
    @property
    def players(self) -> PlayerRepository: ...
    @property
    def tournaments(self) -> TournamentRepository: ...
    @property
    def sanctions(self) -> SanctionRepository: ...
    @property
    def rankings(self) -> RankingRepository: ...
    @property
    def outbox(self) -> Outbox: ...
    @property
    def audit(self) -> AuditLog: ...
    @property
    def updates(self) -> ProcessedUpdates: ...
    @property
    def meta(self) -> Meta: ...
    @property
    def housekeeping(self) -> Housekeeping: ...

    async def __aenter__(self) -> Self: ...
    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...
    async def commit(self) -> None: ...
    async def rollback(self) -> None: ...
    @property
    def must_retry_locked(self) -> bool:
        """Whether this lock-free unit of work gave up, writing nothing (it raised): its
        command must run again in one that locks."""
        ...


class UnitOfWorkFactory(Protocol):
    """Make a unit of work; `read_only=True` for a look-up, which takes no write lock
    (SQLite: its transaction begins DEFERRED) and should write nothing. `lock_free=True`
    for a command that usually saves one row of a tournament: where a transaction costs
    round trips (PostgreSQL) it takes no lock and writes in one statement, or gives up
    (`must_retry_locked`) having written nothing."""

    def __call__(self, *, read_only: bool = False, lock_free: bool = False) -> UnitOfWork: ...
