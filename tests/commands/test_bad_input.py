"""Arbitrary text never crashes the bot, and a refused command changes nothing."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlmodel import SQLModel

from commands.parsing import ParseError, parse
from commands.registry import COMMANDS
from commands.replies import Msg
from storage.engine import make_engine
from tests.commands.chat import Chat

NOT_STATE = {"processed_updates"}  # a refused update is remembered, by design

words = st.sampled_from(
    [
        "alice",
        "bob",
        "3-1",
        "1-3",
        "99-0",
        "0-0",
        "game",
        "gammon",
        "all",
        "new",
        "link",
        "join",
        "#1",
        "1",
        "-1",
        "match:1",
        "vs:bob",
        'name:"Ana P."',
        "reason:x",
        "start:2020-01-01",
        "born:1990-02-30",
        "cube:3",
        "lot:won",
        "preset:chess",
        "group_size:1",
        '"',
        "“x",
        "@everyone",
        "<b>x</b>",
        "ß",
        "💥",
        "/",
        ":",
        "timezone:Mars/Base",
    ]
)
lines = st.one_of(
    st.text(max_size=60),
    st.builds(
        lambda name, args: f"/{name} " + " ".join(args),
        st.sampled_from([c.name for c in COMMANDS]),
        st.lists(words, max_size=4),
    ),
)


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_the_parser_raises_nothing_but_parse_errors(text: str) -> None:
    try:
        parsed = parse(text)
    except ParseError as error:
        assert error.code in {"empty", "not_a_command", "unclosed_quote"}
    else:
        assert parsed.name and parsed.name == parsed.name.lower()


async def dump(engine: AsyncEngine) -> dict[str, list[Any]]:
    async with engine.connect() as connection:
        out = {}
        for name, table in sorted(SQLModel.metadata.tables.items()):
            if name in NOT_STATE:
                continue
            rows = (await connection.execute(select(table))).all()
            out[name] = sorted(tuple(map(repr, row)) for row in rows)
        return out


@settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    st.lists(
        st.tuples(st.sampled_from(["ana", "bob", "zed"]), st.booleans(), lines),
        min_size=1,
        max_size=6,
    )
)
def test_any_text_gets_a_reply_and_a_refusal_changes_nothing(
    database_url: str, typed: list[tuple[str, bool, str]]
) -> None:
    async def scenario() -> None:
        engine = make_engine(database_url)
        try:
            chat = Chat(engine)
            if database_url not in prepared:
                await chat.night("bob", "cruz", "dora", "eli")
                prepared.add(database_url)
            chat.at("2026-01-31T20:05")
            for user, dm, text in typed:
                before = await dump(engine)
                response = await chat.response(user, text, dm=dm)
                if response is None:
                    # Only chatter in the group goes unanswered: text that is no command.
                    assert not dm
                    with pytest.raises(ParseError):
                        parse(text)
                    continue
                keys = [part.key for part in response.reply.parts if isinstance(part, Msg)]
                assert "internal_error" not in keys, text
                if response.refused:
                    assert await dump(engine) == before, text
        finally:
            await engine.dispose()

    asyncio.run(scenario())


prepared: set[str] = set()
