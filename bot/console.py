"""The console platform: chat with the bot in a terminal.

Platform id "console"; the club's channel is the chat "club", a private chat with the
bot is "user:<name>", and a person's user id is the name they type. Every bot message
prints as `[HH:MM] #club: text` or `[HH:MM] @alice: text` (club time), continuation
lines indented by two spaces, buttons as one more line: `  [Accept: /accept 3]`.
With a pictures directory, a picture is written there and prints as
`[picture: NAME.png]`; without one, its text twin prints instead.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Protocol
from zoneinfo import ZoneInfo

from bot.console_chat import CLOCK_KEY, CLUB_CHAT, PLATFORM
from commands.capabilities import as_typed_command
from commands.config import CommandConfig
from commands.dispatch import handle
from commands.rendering import Renderer
from commands.replies import Picture, Reply, from_payload, msg
from commands.session import Invocation
from commands.sweeping import HOUSEKEEPING_EVERY, housekeep, sweep_due
from storage.outbox import OutboxStore
from storage.unit_of_work import SqlUnitOfWorkFactory
from tournament.club import ChatRef, Club

DRAIN_BATCH = 50  # outbox rows claimed, printed and marked at a time


def _is_help(text: str) -> bool:
    words = text.strip().split()
    return bool(words) and words[0].lower().split("@")[0] == "/help"


def dm_chat(name: str) -> str:
    """Return the stored chat of a person's private messages with the bot."""
    return str(ChatRef.of_user(name))


def where(chat: str) -> str:
    """Return how a chat is shown: "#club" for the club's channel, "@alice" for a DM."""
    ref = ChatRef.parse(chat)
    return ("@" if ref.private else "#") + ref.id


def message_lines(stamp: str, place: str, text: str, buttons: tuple[tuple[str, str], ...]) -> str:
    """Return a bot message as printed: first line stamped, the rest indented."""
    body = text.split("\n") if text else [""]
    if buttons:
        body.append(" ".join(f"[{label}: {command}]" for label, command in buttons))
    lines = [f"[{stamp}] {place}: {body[0]}".rstrip()]
    lines += [f"  {line}".rstrip() for line in body[1:]]
    return "\n".join(lines)


class Output(Protocol):
    """Where the console's traffic goes: a terminal, a test, the demo's narrator."""

    def message(self, text: str) -> None:
        """Show one bot message (already formatted by `message_lines`)."""
        ...

    def typed(self, line: str) -> None:
        """Show what a person typed (the plain transcript output leaves it out)."""
        ...

    def narration(self, text: str) -> None:
        """Show a `##` line of a transcript (plain output leaves it out)."""
        ...


class PlainOutput:
    """Print bot messages only, as INTERFACE §3 shows them."""

    def __init__(self, write: Callable[[str], object] | None = None) -> None:
        self._write = write or (lambda line: print(line, flush=True))

    def message(self, text: str) -> None:
        self._write(text)

    def typed(self, line: str) -> None:
        pass

    def narration(self, text: str) -> None:
        pass


class ConsoleBot:
    """One console session: run commands, sweep what is due, print replies and outbox."""

    def __init__(
        self,
        *,
        uow_factory: SqlUnitOfWorkFactory,
        config: CommandConfig,
        outbox: OutboxStore,
        output: Output,
        pictures: Path | None = None,
    ) -> None:
        self.uow_factory = uow_factory
        self.config = config
        self.outbox = outbox
        self.output = output
        self.pictures = pictures  # where pictures are written; None: show their text
        self.written: set[str] = set()  # the picture files written
        self._clubs: dict[int, Club] = {}
        self._club_id: int | None = None
        # The next deadline as far as this session knows: set by a full sweep, brought
        # forward by each command's own deadline (never later than the stored one), so
        # `catch_up` sweeps only when something may have fallen due.
        self._next: datetime | None = None
        self._known = False
        self._housekept: datetime | None = None

    # -- the club of the console --

    async def ensure_club(self, now: datetime) -> Club:
        """Return the club linked to the console's "club" chat, creating the default one."""
        async with self.uow_factory() as uow:
            club = await uow.clubs.for_chat(PLATFORM, CLUB_CHAT)
            if club is None:
                club = await uow.clubs.add(
                    self.config.default_club_name,
                    self.config.default_timezone,
                    self.config.default_language,
                    now,
                )
                await uow.clubs.link_chat(club.id, PLATFORM, CLUB_CHAT)
                await uow.commit()
        self._remember(club)
        return club

    async def update_club(
        self, now: datetime, *, name: str | None, timezone: str | None, language: str | None
    ) -> Club:
        """Create or change the console's club (the `@club` directive)."""
        club = await self.ensure_club(now)
        async with self.uow_factory() as uow:
            club = await uow.clubs.get(club.id)
            club.name = name if name is not None else club.name
            club.timezone = timezone if timezone is not None else club.timezone
            club.language = language if language is not None else club.language
            await uow.clubs.save(club)
            await uow.commit()
        self._remember(club)
        self._known = False  # another time zone may move what falls due when
        return club

    async def add_director(self, now: datetime, name: str) -> None:
        """Make `name` a director of the console's club (the `@director` directive)."""
        club = await self.ensure_club(now)
        async with self.uow_factory() as uow:
            await uow.clubs.add_director(club.id, PLATFORM, name)
            await uow.commit()
        self._known = False

    def _language(self) -> str | None:
        """Return the console club's language, once it has a club."""
        return None if self._club_id is None else self._clubs[self._club_id].language

    @property
    def club(self) -> Club:
        if self._club_id is None:
            raise RuntimeError("ensure_club first")
        return self._clubs[self._club_id]

    def stamp(self, at: datetime, club: Club | None = None) -> str:
        """Return HH:MM in the club's time zone."""
        zone = ZoneInfo((club or self.club).timezone)
        return at.astimezone(zone).strftime("%H:%M")

    def stamp_full(self, at: datetime) -> str:
        """Return YYYY-MM-DD HH:MM in the club's time zone."""
        return at.astimezone(ZoneInfo(self.club.timezone)).strftime("%Y-%m-%d %H:%M")

    def _remember(self, club: Club) -> None:
        self._clubs[club.id] = club
        self._club_id = club.id

    async def _club(self, club_id: int) -> Club:
        if club_id not in self._clubs:
            async with self.uow_factory() as uow:
                self._clubs[club_id] = await uow.clubs.get(club_id)
        return self._clubs[club_id]

    async def _refresh(self) -> None:
        """Re-read the clubs: a /club command may have changed a name or time zone."""
        async with self.uow_factory() as uow:
            for club_id in list(self._clubs):
                self._clubs[club_id] = await uow.clubs.get(club_id)

    # -- traffic --

    async def command(self, user: str, text: str, *, private: bool, now: datetime) -> None:
        """Run what `user` typed, in the club's channel or privately; print what follows."""
        chat = dm_chat(user) if private else CLUB_CHAT
        self.output.typed(f"{user} (dm): {text}" if private else f"{user}: {text}")
        inv = Invocation(
            platform=PLATFORM,
            chat=chat,
            user=user,
            user_name=user,
            text=text,
            now=now,
            private=private,
            # The console is one club's terminal: a stranger writing it privately speaks
            # the club's language, as a chat app would say the person's own.
            locale=self._language() if private else None,
        )
        response = await handle(inv, uow_factory=self.uow_factory, config=self.config)
        if text.lstrip().lower().startswith("/club"):
            await self._refresh()
        if response is not None:
            renderer = Renderer(response.language, response.timezone, "plain")
            reply = response.reply
            if _is_help(text) and not response.refused:
                # The console has no chat admins: say how to type as someone, director too.
                reply = Reply((*reply.parts, msg("console.help")), reply.buttons, reply.private)
            self._print(now, chat, renderer, reply, self.club)
            # The reply said it: the announcements it carries went out.
            await self.outbox.mark_all_sent(response.held, at=now)
            if response.deadline is not None and not response.refused:
                self._next = min(self._next or response.deadline, response.deadline)
        if response is not None and PLATFORM in response.queued:
            await self.drain(now)  # only the console's own rows print here

    async def sweep(self, now: datetime) -> datetime | None:
        """Apply what fell due by `now`, print the messages it caused; return the next
        deadline. Prunes the bounded stores too when an hour passed since it last did."""
        chores = self._housekept is None or now - self._housekept >= HOUSEKEEPING_EVERY
        deadline = await sweep_due(
            uow_factory=self.uow_factory, config=self.config, now=now, housekeeping=chores
        )
        if chores:
            self._housekept = now
        self._next, self._known = deadline, True
        await self.drain(now)
        return deadline

    async def catch_up(self, now: datetime) -> datetime | None:
        """Sweep only if something may have fallen due by `now` (or nothing is known
        yet); return the next deadline. Commands re-arm it: no sweep after each one."""
        if not self._known or (self._next is not None and self._next <= now):
            return await self.sweep(now)
        if self._housekept is not None and now - self._housekept >= HOUSEKEEPING_EVERY:
            await housekeep(uow_factory=self.uow_factory, now=now)
            self._housekept = now
        return self._next

    async def drain(self, now: datetime) -> int:
        """Print and mark sent every console message waiting in the outbox."""
        printed = 0
        while True:
            rows = await self.outbox.claim(PLATFORM, now=now, limit=DRAIN_BATCH)
            shown: list[int] = []
            for row in rows:
                club = await self._club(row.club_id)
                language = str(row.payload.get("language") or club.language)
                renderer = Renderer(language, club.timezone, "plain")
                try:
                    reply = from_payload(row.payload)
                except (KeyError, TypeError, ValueError) as error:
                    await self.outbox.mark_failed(row.id, at=now, error=f"bad payload: {error}")
                    continue
                self._print(now, row.chat, renderer, reply, club)
                shown.append(row.id)
            # One transaction for the batch (a crash before it prints them again, as
            # one per row did for the row in flight).
            await self.outbox.mark_all_sent(shown, at=now)
            printed += len(shown)
            if len(rows) < DRAIN_BATCH:
                return printed  # nothing more waits: printing queues nothing

    def _print(
        self, now: datetime, chat: str, renderer: Renderer, reply: Reply, club: Club
    ) -> None:
        rendered = renderer.reply(reply)
        body = rendered.text
        if club.pictures and any(isinstance(p, Picture) for p in reply.parts):
            # INTERFACE 3: a picture prints as [picture: NAME.png], written to --pictures
            # DIR when given; without a folder its text twin follows, so nothing is lost.
            blocks = [
                self._picture(part, club, renderer)
                if isinstance(part, Picture)
                else renderer.reply(Reply((part,))).text
                for part in reply.parts
            ]
            body = "\n".join(block for block in blocks if block)
        if not body and not rendered.buttons:
            return  # a picture with no text twin, and nowhere to put it
        # A console button is typed, not pressed: shown without its club and person.
        shown = tuple((label, as_typed_command(command)) for label, command in rendered.buttons)
        text = message_lines(self.stamp(now, club), where(chat), body, shown)
        self.output.message(text)

    def _picture(self, picture: Picture, club: Club, renderer: Renderer) -> str:
        """Write a picture to the pictures directory, if any; return how it is shown."""
        if self.pictures is None:
            twin = renderer.reply(Reply(picture.fallback)).text if picture.fallback else ""
            return "\n".join(filter(None, (f"[picture: {picture.name}.png]", twin)))
        from bot.pictures import render  # Pillow loads only when pictures are drawn

        drawn = render(picture, club.language, club.timezone)
        self.pictures.mkdir(parents=True, exist_ok=True)
        (self.pictures / drawn.filename).write_bytes(drawn.png)
        self.written.add(drawn.filename)
        return f"[picture: {drawn.filename}]"

    # -- the clock a console run left behind --

    async def stored_clock(self) -> datetime | None:
        async with self.uow_factory() as uow:
            value = await uow.meta.get(CLOCK_KEY)
        return None if value is None else datetime.fromisoformat(value)

    async def store_clock(self, now: datetime) -> None:
        async with self.uow_factory() as uow:
            await uow.meta.set(CLOCK_KEY, now.isoformat())
            await uow.commit()
