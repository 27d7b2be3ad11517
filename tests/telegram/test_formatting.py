"""Telegram HTML splitting, button layout and the command text rules (no database)."""

from __future__ import annotations

import html
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.sending.buttons import ButtonStore, token_for
from bot.telegram_adapter.delivery import CALLBACK_DATA_LIMIT
from bot.telegram_adapter.formatting import (
    keyboard,
    length,
    render,
    split_html,
    split_plain,
)
from bot.telegram_adapter.pacing import Limits, pacer
from bot.telegram_adapter.updates import command_text
from commands.replies import Msg, Name, Reply, Table, msg
from storage.unit_of_work import unit_of_work_factory

TAG = re.compile(r"<(/?)(\w+)[^>]*>")


def balanced(chunk: str) -> bool:
    depth: list[str] = []
    for closing, name in TAG.findall(chunk):
        if not closing:
            depth.append(name)
        elif not depth or depth.pop() != name:
            return False
    return not depth


def test_a_short_message_is_one_chunk() -> None:
    assert split_html("Hello <pre>a  b</pre>") == ["Hello <pre>a  b</pre>"]


def test_a_long_table_becomes_several_pre_blocks_with_the_header_repeated() -> None:
    header = "Name      W  L"
    lines = [f"player{i:04d} &amp; co  {i % 7}  {i % 5}" for i in range(600)]
    text = "Group A\n<pre>" + header + "\n" + "\n".join(lines) + "</pre>\nTiebreaks: wins"
    chunks = split_html(text)
    assert len(chunks) >= 4
    assert chunks[0].startswith("Group A\n<pre>" + header)
    for chunk in chunks:
        assert length(chunk) <= 4096 and balanced(chunk)
        assert chunk.count("<pre>") == 1
    for chunk in chunks[1:]:
        assert chunk.startswith("<pre>" + header + "\n")
    assert chunks[-1].endswith("</pre>\nTiebreaks: wins")
    rows = [
        line
        for c in chunks
        for line in html.unescape(TAG.sub("", c)).split("\n")
        if "player" in line
    ]
    assert rows == [html.unescape(line) for line in lines]  # each row exactly once, in order


def test_a_line_longer_than_a_message_is_cut_between_words_not_inside_entities() -> None:
    text = " ".join(["&lt;word&gt;"] * 2000)
    chunks = split_html(text)
    assert len(chunks) > 1
    for chunk in chunks:
        assert length(chunk) <= 4096
        assert not re.search(r"&[a-z]*$", chunk) and not re.match(r"^[a-z]*;", chunk)
    assert "".join(chunks).replace(" ", "") == text.replace(" ", "")


def test_length_counts_utf16_units_as_telegram_does() -> None:
    assert length("é") == 1 and length("🏆") == 2
    chunks = split_html("🏆" * 5000)
    assert all(length(c) <= 4096 for c in chunks) and "".join(chunks) == "🏆" * 5000


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.text(alphabet="ab &<>\n🏆", min_size=0, max_size=300).map(
                lambda s: html.escape(s, quote=False)
            ),
            st.lists(
                st.text(alphabet="xyz <>&", min_size=1, max_size=80), min_size=1, max_size=80
            ).map(lambda rows: "<pre>" + html.escape("\n".join(rows), quote=False) + "</pre>"),
        ),
        min_size=1,
        max_size=12,
    ),
    st.integers(min_value=200, max_value=4096),
)
def test_split_html_keeps_every_chunk_short_balanced_and_the_words_in_order(
    parts: list[str], limit: int
) -> None:
    text = "\n".join(parts)
    chunks = split_html(text, limit)
    for chunk in chunks:
        assert length(chunk) <= limit
        assert balanced(chunk)
        assert not re.search(r"&[#\w]*$", chunk)  # no entity cut in two
    words = re.findall(r"[^\s<>]+", html.unescape(TAG.sub(" ", text)))
    got = re.findall(r"[^\s<>]+", html.unescape(TAG.sub(" ", "\n".join(chunks))))
    # Repeated table headers aside, every word arrives once and in order.
    it = iter(got)
    assert all(any(word == seen for seen in it) for word in words)


def test_split_plain_splits_at_lines() -> None:
    text = "\n".join(f"line {i}" for i in range(2000))
    chunks = split_plain(text)
    assert all(length(c) <= 4096 for c in chunks)
    assert "\n".join(chunks) == text


def test_render_escapes_names_in_tables_and_text() -> None:
    table = Table(
        title=msg("club.checkin_open", tournament=Name("<i>Cup</i>")),
        header=(Msg("word.white"),),
        rows=((Name("<b>x</b> @everyone & co"),),),
    )
    out = render(Reply((table,)), "en", "UTC")
    (chunk,) = out.chunks
    assert "&lt;i&gt;Cup&lt;/i&gt;" in chunk
    assert "<pre>" in chunk and "&lt;b&gt;x&lt;/b&gt; @\u200beveryone &amp; co" in chunk


def test_buttons_short_pair_on_one_row_else_one_per_row() -> None:
    pair = keyboard([("Accept", "/accept 3"), ("Dispute", "/dispute 3")])
    assert pair is not None and [len(r) for r in pair.inline_keyboard] == [2]
    picks = keyboard([(f"vs player {i} (match {i})", f"/report 3-1 match:{i}") for i in range(3)])
    assert picks is not None and [len(r) for r in picks.inline_keyboard] == [1, 1, 1]
    assert keyboard([]) is None


def test_callback_data_over_64_bytes_goes_by_token() -> None:
    store = ButtonStore(unit_of_work_factory(None), limit=CALLBACK_DATA_LIMIT)  # type: ignore[arg-type]
    assert store.fits("/accept 12")
    long = '/report 3-1 match:12 vs:"' + "a" * 60 + '"'
    assert not store.fits(long)
    token = token_for(long)
    assert len(token.encode()) <= 64 and token == token_for(long)


def test_command_text_rules() -> None:
    assert command_text("/report 3-1", "clubtd_bot") == "/report 3-1"
    assert command_text("/report@ClubTD_bot 3-1", "clubtd_bot") == "/report 3-1"
    assert command_text("/report@other_bot 3-1", "clubtd_bot") is None
    assert command_text("/start hi", "clubtd_bot") == "/help"
    assert command_text("hello", "clubtd_bot") == "hello"


def test_pacer_one_a_second_per_chat_twenty_a_minute_per_group() -> None:
    now = [0.0]
    paced = pacer(Limits(per_chat_seconds=1.0, group_per_minute=20), clock=lambda: now[0])
    assert paced.delay("-5") == 0.0
    paced.record("-5")
    assert paced.delay("-5") == 1.0 and paced.delay("7") == 0.0
    for _ in range(19):
        now[0] += 1.0
        paced.record("-5")
        paced.record("7")  # a private chat has no per-minute limit
    now[0] += 1.0
    assert paced.delay("-5") == 40.0  # the first of the 20 leaves the window at 60 s
    assert paced.delay("7") == 0.0
    paced.record("7")
    paced.pause("7", 30)
    assert paced.delay("7") == 30.0
