"""Mentions that ping: a message's `Mention`s get the accounts of the platform it goes to.

A round call names its players and a dispute calls the club's directors as `Mention`
parameters; before a message is queued for a platform, `address` fills in each one's
accounts on that platform, so Discord pings exactly those users (`allowed_mentions`)
and Telegram links them by id. A player with no account there stays a plain name, and
the console shows names only.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace

from commands.messages import Mention, Msg, Param
from commands.ports import UnitOfWork
from commands.replies import Picture, Reply, Table


@dataclass(frozen=True, slots=True)
class Addresses:
    """The accounts a batch of messages may ping: players' and the club's directors'."""

    accounts: Mapping[int, list[tuple[str, str]]] = field(default_factory=dict)
    directors: tuple[tuple[str, str], ...] = ()


NOBODY = Addresses()


def _params(value: Param) -> Iterator[Param]:
    yield value
    if isinstance(value, Msg):
        for inner in value.params.values():
            yield from _params(inner)


def found(replies: Iterable[Reply]) -> list[Mention]:
    """Return every mention the replies make (in their messages, not in tables)."""
    return [
        value
        for reply in replies
        for part in reply.parts
        if isinstance(part, Msg)
        for value in _params(part)
        if isinstance(value, Mention)
    ]


async def lookup(
    uow: UnitOfWork, club_id: int, replies: Iterable[Reply], configured: Iterable[tuple[str, str]]
) -> Addresses:
    """Return the accounts the replies' mentions need (none looked up when they make none);
    `configured` are the directors every club has (CLUBTD_DIRECTORS)."""
    made = found(replies)
    if not made:
        return NOBODY
    players = sorted({m.player for m in made if m.player is not None})
    accounts = await uow.players.accounts_of(players) if players else {}
    directors: list[tuple[str, str]] = []
    if any(m.directors for m in made):
        for pair in [*await uow.clubs.directors(club_id), *sorted(configured)]:
            if pair not in directors:
                directors.append(pair)
    return Addresses(accounts, tuple(directors))


def address(reply: Reply, platform: str, addresses: Addresses) -> Reply:
    """Return the reply with each mention given its accounts on `platform`."""
    if addresses is NOBODY or not found([reply]):
        return reply

    def users(mention: Mention) -> tuple[str, ...]:
        if mention.directors:
            return tuple(u for p, u in addresses.directors if p == platform)
        if mention.player is None:
            return ()
        return tuple(u for p, u in addresses.accounts.get(mention.player, []) if p == platform)

    def fill(value: Param) -> Param:
        if isinstance(value, Mention):
            return replace(value, users=users(value))
        return fill_msg(value) if isinstance(value, Msg) else value

    def fill_msg(message: Msg) -> Msg:
        return Msg(message.key, {k: fill(v) for k, v in message.params.items()})

    parts: list[Msg | Table | Picture] = [
        fill_msg(part) if isinstance(part, Msg) else part for part in reply.parts
    ]
    return replace(reply, parts=tuple(parts))


def pinged(reply: Reply) -> tuple[str, ...]:
    """Return the accounts a reply pings, each once, in order."""
    out: list[str] = []
    for mention in found([reply]):
        for user in mention.users[:1] if not mention.directors else mention.users:
            if user not in out:
                out.append(user)
    return tuple(out)


def calls_directors(reply: Reply) -> bool:
    return any(m.directors for m in found([reply]))


def with_directors(reply: Reply, users: Iterable[str]) -> Reply:
    """Return the reply with `users` added to its call to the club's directors (the
    platform knows them: a Telegram group's administrators)."""
    extra = list(dict.fromkeys(users))
    if not extra or not calls_directors(reply):
        return reply

    def fill(value: Param) -> Param:
        if isinstance(value, Mention) and value.directors:
            return replace(value, users=tuple(dict.fromkeys([*value.users, *extra])))
        return fill_msg(value) if isinstance(value, Msg) else value

    def fill_msg(message: Msg) -> Msg:
        return Msg(message.key, {k: fill(v) for k, v in message.params.items()})

    parts = tuple(fill_msg(p) if isinstance(p, Msg) else p for p in reply.parts)
    return replace(reply, parts=parts)
