"""Arbitrary text never crashes the bot, and a refused command changes nothing."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from commands.parsing import ParseError, parse
from commands.registry import every_command
from commands.replies import Msg
from storage.engine import make_engine
from storage.tables import metadata
from tests.commands.chat import Chat
from tournament.preset import override_keys

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
        st.sampled_from([c.name for c in every_command()]),
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
        for name, table in sorted(metadata.tables.items()):
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


def _option_names() -> list[str]:
    """Every option name any command declares, the preset's keys, and near misses."""
    names = {p.name for spec in every_command() for p in spec.signature.params}
    names |= {a for spec in every_command() for p in spec.params for a in p.aliases}
    names |= set(override_keys())
    return sorted(names | {"thirdplace", "groupsize", "key", "code", "usage", "x", "text"})


option_values = st.one_of(
    st.sampled_from(
        [
            "",
            "1",
            "0",
            "-3",
            "five",
            "yes",
            "no",
            "maybe",
            "3-1",
            "navodari",
            "navodari-table",
            "2026-01-31",
            '"2026-01-31 21:00"',
            '"2099-01-01 20:00"',
            "Mars/Base",
            "1990-02-30",
            "bob",
            "alice",
            '"January Cup"',
            "all",
            "#2",
            "1e9",
            "99999999999",
            "{key}",
            "<b>",
        ]
    ),
    st.text(
        alphabet=st.characters(blacklist_categories=("Cs", "Zs", "Cc"), blacklist_characters='"'),
        max_size=8,
    ),
)
positional_words = st.sampled_from(
    ["bob", "cruz", "Dora", "eli", "3-1", "1-3", "2-2", "5", "#1", "all", "game", "x", "-"]
)


@st.composite
def declared_lines(draw: st.DrawFn) -> str:
    """A line for any command or subcommand, with declared and invented options."""
    spec = draw(st.sampled_from(list(every_command())))
    words = draw(st.lists(positional_words, max_size=3))
    own = [p.name for p in spec.signature.params]
    if spec.preset_options:
        own += ["group_size", "third_place", "approval", "knockout.final_length"]
    names = st.one_of(st.sampled_from(own), st.sampled_from(_option_names()))
    options = draw(st.lists(st.tuples(names, option_values), max_size=4))
    typed = [f"{key}:{value}" for key, value in options]
    return " ".join([f"/{spec.name}", *words, *typed])


@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    st.lists(
        st.tuples(st.sampled_from(["ana", "bob", "zed"]), st.booleans(), declared_lines()),
        min_size=1,
        max_size=5,
    )
)
def test_every_command_as_player_and_director_refuses_bad_options_without_a_crash(
    database_url: str, typed: list[tuple[str, bool, str]]
) -> None:
    """Every registry command and subcommand, any option name or value: a reply, no crash."""

    async def scenario() -> None:
        engine = make_engine(database_url)
        try:
            chat = Chat(engine)
            if database_url not in declared_prepared:
                await chat.night("bob", "cruz", "dora", "eli")
                declared_prepared.add(database_url)
            chat.at("2026-01-31T20:05")
            for user, dm, text in typed:
                before = await dump(engine)
                response = await chat.response(user, text, dm=dm)
                assert response is not None, text
                keys = [part.key for part in response.reply.parts if isinstance(part, Msg)]
                assert "internal_error" not in keys, text
                if response.refused:
                    assert await dump(engine) == before, text
        finally:
            await engine.dispose()

    asyncio.run(scenario())


declared_prepared: set[str] = set()
