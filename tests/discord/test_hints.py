"""Hints in Discord's slash form, with the option names the registry declares (issue 20)."""

from __future__ import annotations

import re

import pytest

from bot.discord_adapter import options
from bot.discord_adapter.hints import slash_form
from bot.discord_adapter.rendering import render
from bot.telegram_adapter.formatting import render as telegram
from commands.catalog import CATALOGS
from commands.registry import BY_NAME
from commands.rendering import Renderer
from commands.replies import Hint, Reply, msg


@pytest.mark.parametrize(
    ("typed", "slash"),
    [
        ("/result 1 3-0", "/result match:1 score:3-0"),
        ("/result 4 2-2 3-1", "/result match:4 score:2-2 3-1"),
        ("/report 3-1 [match:5]", "/report score:3-1 [match:5]"),
        ("/result alice 3-1 bob", "/result player:alice score:3-1 opponent:bob"),
        ('/tournament new name:"May Cup"', "/tournament new name:May Cup"),
        ("/withdraw confirm", "/withdraw confirm:True"),
        ("/report game kind:gammon", "/report kind:gammon"),
        ('/pause 3 reason:"a phone call"', "/pause match:3 reason:a phone call"),
        # /help's lines: optional words, placeholders, forms, what only buttons fill in
        (
            '/register [name:"Ana P."] [born:1950-03-02]',
            "/register [name:Ana P.] [born:1950-03-02]",
        ),
        ('/pause 5 reason:"..."', "/pause match:5 reason:..."),
        ("/accept [5] [report:2]", "/accept [match:5]"),
        ("/tournament new [group_size:4 ...]", "/tournament new [group_size:4] ..."),
        ("/result 5 3-1 \u00b7 /lot [2]", "/result match:5 score:3-1 \u00b7 /lot [group:2]"),
    ],
)
def test_a_typed_hint_reads_as_the_slash_menu_takes_it(typed: str, slash: str) -> None:
    assert slash_form(typed) == slash


def test_a_line_discord_has_no_command_for_stays_as_typed() -> None:
    assert slash_form("/nosuch 1") is None
    assert slash_form("/report game") is None  # a folded subcommand with nothing chosen
    shown = render(Reply((msg("score.usage", example=Hint("/nosuch 1")),)), "en", "UTC")
    assert "/nosuch 1" in shown.contents[0]


def test_a_hint_is_shown_as_code_in_slash_form() -> None:
    reply = Reply((msg("score.usage", example=Hint("/report 3-1")),))
    (shown,) = render(reply, "en", "UTC").contents
    assert shown == "Send your score first, for example `/report score:3-1`."


def test_a_hint_written_in_a_template_renders_as_each_platform_types_it() -> None:
    paused = Reply((msg("pause.done", match=5), msg("club.pictures_on")))
    discord_text = render(paused, "es", "UTC").contents[0]
    assert "`/resume match:5`" in discord_text
    assert "`/club settings pictures:off`" in discord_text
    assert "<code>/resume 5</code>" in telegram(paused, "es", "UTC").chunks[0]
    console = Renderer("es", "UTC", "plain").reply(paused).text
    assert "/resume 5 " in console and "`" not in console


@pytest.mark.parametrize("language", ["en", "es", "pl", "ro"])
def test_every_hint_a_template_marks_is_a_command_of_the_slash_menu(language: str) -> None:
    marked = [
        (key, found)
        for key, text in CATALOGS[language].items()
        for found in re.findall(r"`(/[^`]+)`", text)
    ]
    assert len(marked) >= 20
    for key, hint in marked:
        typed = re.sub(r"\{\w+\}", "5", hint)
        slash = slash_form(typed)
        assert slash is not None, (key, hint)
        assert _fits_its_options(slash), (key, hint, slash)


def test_a_value_that_does_not_fit_its_option_is_caught() -> None:
    assert _fits_its_options("/result match:5 score:3-1")
    assert _fits_its_options("/reopen match:NUMBER")
    assert not _fits_its_options("/result match:abc")
    assert not _fits_its_options("/withdraw confirm:yes")


def _fits_its_options(slash: str) -> bool:
    """Whether each value of a slash form fits its option: a flag takes True, a number a
    number (or a placeholder in capitals, as usage lines write it): `/result match:abc`
    does not."""
    words = slash.removeprefix("/").split()
    spec = BY_NAME[words[0]]
    shape = options.command(spec)
    known = list(shape.options)
    for sub in shape.subcommands:
        if len(words) > 1 and sub.name == words[1]:
            known = list(sub.options)
    kinds = {o.name: o.kind for o in known}
    for word in words[1:]:
        name, sep, value = word.strip("[]").partition(":")
        if not sep or name not in kinds:
            continue
        if kinds[name] == "flag" and value != "True":
            return False
        if kinds[name] == "int" and not (value.isdigit() or value.isupper()):
            return False
    return True
