"""A fake chat around the real command layer: people type, the bot answers.

Replies and outbox messages are rendered as plain text, the way the console shows
them; the clock is virtual and the database real (SQLite or PostgreSQL).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from sqlalchemy.ext.asyncio import AsyncEngine

from commands.config import CommandConfig
from commands.dispatch import Response, handle
from commands.rendering import Renderer
from commands.replies import from_payload
from commands.session import Invocation
from commands.sweeping import sweep_due
from storage.outbox import OutboxStore
from storage.unit_of_work import unit_of_work_factory
from tournament.state import Match, TournamentState


@dataclass
class Chat:
    engine: AsyncEngine
    now: datetime = datetime(2026, 1, 30, 12, 0, tzinfo=UTC)
    directors: frozenset[tuple[str, str]] = frozenset({("console", "ana")})
    posted: list[tuple[str, str]] = field(default_factory=list)  # (chat, text) from outbox
    updates: int = 0

    def __post_init__(self) -> None:
        self.uow_factory = unit_of_work_factory(self.engine)
        self.config = CommandConfig(directors=self.directors)
        self.outbox = OutboxStore(self.engine)

    def at(self, text: str) -> None:
        """Move the clock to "YYYY-MM-DD HH:MM" UTC (forward only)."""
        moment = datetime.fromisoformat(text).replace(tzinfo=UTC)
        assert moment >= self.now
        self.now = moment

    async def response(
        self,
        user: str,
        text: str,
        *,
        dm: bool = False,
        update_id: str | None = None,
        pressed: bool = False,
        locale: str | None = None,
    ) -> Response | None:
        inv = Invocation(
            platform="console",
            chat=f"user:{user}" if dm else "club",
            user=user,
            user_name=user,
            text=text,
            now=self.now,
            private=dm,
            update_id=update_id,
            pressed=pressed,
            locale=locale,
        )
        response = await handle(inv, uow_factory=self.uow_factory, config=self.config)
        for row_id in response.held if response is not None else ():
            # As an adapter does: the reply said it, so the announcement it carries went.
            await self.outbox.mark_sent(row_id, at=self.now)
        return response

    async def say(
        self, user: str, text: str, *, dm: bool = False, update_id: str | None = None
    ) -> str:
        """Type `text` as `user`; return the bot's reply as plain text."""
        response = await self.response(user, text, dm=dm, update_id=update_id)
        await self.drain()
        return "" if response is None else self.text(response)

    def text(self, response: Response) -> str:
        """Return a response's reply as plain text, as the console shows it."""
        renderer = Renderer(response.language, response.timezone, "plain")
        return renderer.reply(response.reply).text

    async def drain(self) -> list[tuple[str, str]]:
        rows = await self.outbox.claim("console", now=self.now, limit=1000)
        out = []
        for row in rows:
            text = Renderer("en", "UTC", "plain").reply(from_payload(row.payload)).text
            out.append((row.chat, text))
            await self.outbox.mark_sent(row.id, at=self.now)
        self.posted.extend(out)
        return out

    async def wait(self, minutes: int) -> None:
        """Advance the clock, applying what falls due on the way, in order."""
        target = self.now + timedelta(minutes=minutes)
        while True:
            deadline = await sweep_due(
                uow_factory=self.uow_factory, config=self.config, now=self.now
            )
            await self.drain()
            if deadline is None or deadline > target:
                break
            self.now = max(deadline, self.now)
        self.now = target
        await sweep_due(uow_factory=self.uow_factory, config=self.config, now=self.now)
        await self.drain()

    async def tournament(self) -> TournamentState:
        async with self.uow_factory() as uow:
            club = await uow.clubs.for_chat("console", "club")
            assert club is not None
            state = await uow.tournaments.current(club.id)
            assert state is not None
            return state

    async def player_id(self, name: str) -> int:
        async with self.uow_factory() as uow:
            club = await uow.clubs.for_chat("console", "club")
            assert club is not None
            (player,) = await uow.players.by_name(club.id, name)
            return player.id

    async def first_match(self, *players: str) -> tuple[Match, str, str]:
        """Return the tournament's first match and its white and black players' names."""
        state = await self.tournament()
        match = min(state.matches.values(), key=lambda m: m.number)
        names = {await self.player_id(name): name for name in players}
        assert match.white is not None and match.black is not None
        return match, names[match.white], names[match.black]

    async def night(
        self,
        *players: str,
        start: str = "2026-01-31 20:00",
        check_in: tuple[str, ...] | None = None,
        preset: str = "hgv-backgammon",
        extra: str = "",
        added: tuple[str, ...] = (),
        unconfirmed: tuple[str, ...] = (),
    ) -> None:
        """Create a tournament, enter and confirm players, check some in, and draw.

        `added`: players the director enters (/addplayer, no chat account), confirmed
        but not marked present; `unconfirmed`: players who register and never confirm.
        """
        await self.say(
            "ana",
            f'/tournament new name:"January Cup" preset:{preset} '
            f'start:"{start}" approval:no {extra}',
        )
        for player in unconfirmed:
            await self.say(player, "/register")
        for player in players:
            await self.say(player, "/register")
            await self.say(player, "/confirm")
        for name in added:
            await self.say("ana", f'/addplayer "{name}"')
        self.at(start.replace(" ", "T")[:11] + "19:30" if "20:00" in start else start)
        for player in check_in if check_in is not None else players:
            await self.say(player, "/checkin")
        await self.say("ana", "/draw")
