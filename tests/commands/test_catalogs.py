"""Every catalog matches English key for key and placeholder for placeholder, and renders."""

from __future__ import annotations

import string

import pytest

from commands.catalog import CATALOGS, LANGUAGES, en
from commands.rendering import Renderer
from commands.replies import Msg, Name


def placeholders(template: str) -> set[str]:
    """Return the names of the `{fields}` of a `str.format` template."""
    return {field for _, field, _, _ in string.Formatter().parse(template) if field is not None}


def test_english_comes_first() -> None:
    assert LANGUAGES[0] == "en"
    assert CATALOGS["en"] is en.MESSAGES


@pytest.mark.parametrize("language", LANGUAGES)
def test_same_keys_as_english(language: str) -> None:
    catalog = CATALOGS[language]
    assert sorted(set(en.MESSAGES) - set(catalog)) == [], "missing keys"
    assert sorted(set(catalog) - set(en.MESSAGES)) == [], "keys English does not have"


@pytest.mark.parametrize("language", LANGUAGES)
def test_same_placeholders_as_english(language: str) -> None:
    catalog = CATALOGS[language]
    wrong = {
        key: (sorted(placeholders(catalog[key])), sorted(placeholders(english)))
        for key, english in en.MESSAGES.items()
        if key in catalog and placeholders(catalog[key]) != placeholders(english)
    }
    assert wrong == {}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_template_formats(language: str) -> None:
    for key, template in CATALOGS[language].items():
        assert isinstance(template, str), key
        values = {name: f"<{name}>" for name in placeholders(template)}
        try:
            text = template.format(**values)
        except (KeyError, IndexError, ValueError) as error:  # pragma: no cover - reports
            pytest.fail(f"{language} {key}: {error!r}")
        assert "{" not in text and "}" not in text, key


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_markup_or_mass_mentions(language: str) -> None:
    for key, template in CATALOGS[language].items():
        assert "<" not in template, key
        assert "@everyone" not in template, key
        assert "@here" not in template, key


@pytest.mark.parametrize("language", LANGUAGES)
def test_renders_a_finished_match_line(language: str) -> None:
    line = Msg(
        "line.finished",
        {
            "number": 7,
            "white": Name("Ana P."),
            "black": Name("Bob"),
            "score": Msg("score.plain", {"white": 3, "black": 1}),
            "winner": Name("Ana P."),
            "ws": 3,
            "bs": 1,
            "length": 3,
        },
    )
    text = Renderer(language, "UTC", "plain").message(line)
    assert "7" in text
    assert "Ana P." in text
    assert "Bob" in text
    assert "3-1" in text
    assert "{" not in text and "}" not in text
    if language != "en":
        assert text != Renderer("en", "UTC", "plain").message(line), "English was used"
