"""Every catalog matches English key for key, placeholder for placeholder and plural form
for plural form (CLDR's categories of each language), and renders."""

from __future__ import annotations

import string

import pytest

from commands.catalog import CATALOGS, LANGUAGES, en
from commands.rendering import Renderer, plural_category, plurals
from commands.replies import Msg, Name


def flat(template: str) -> str:
    """Return the template with each plural block replaced by its `{name}` field."""
    out, done = [], 0
    for block in plurals(template):
        out += [template[done : block.start], "{" + block.name + "}"]
        done = block.end
    return "".join([*out, template[done:]])


def placeholders(template: str) -> set[str]:
    """Return the names of the `{fields}` of a `str.format` template."""
    return {
        field for _, field, _, _ in string.Formatter().parse(flat(template)) if field is not None
    }


@pytest.mark.parametrize("language", LANGUAGES)
def test_plural_forms_cover_the_language(language: str) -> None:
    """Each plural block has every form CLDR uses for whole numbers, plus "other"."""
    needed = {plural_category(language, n) for n in range(1001)} | {"other"}
    wrong = {}
    for key, template in CATALOGS[language].items():
        for block in plurals(template):
            if set(block.forms) - {f for f in block.forms if f.startswith("=")} != needed:
                wrong[key] = sorted(block.forms)
            if any("{" in text for text in block.forms.values()):
                wrong[key] = ["a plural form may only use #"]
    assert wrong == {}


def test_polish_has_three_plural_forms() -> None:
    late = Msg("late.you", {"minutes": 10, "match": 3, "points": 1})
    renderer = Renderer("pl", "UTC", "plain")
    said = {
        n: renderer.message(Msg("late.you", {**late.params, "points": n})) for n in (1, 2, 5, 22)
    }
    assert "1 punkt." in said[1]
    assert "2 punkty." in said[2]
    assert "5 punktów." in said[5]
    assert "22 punkty." in said[22]


@pytest.mark.parametrize(("language", "shown"), [("en", "2.30"), ("es", "2,30"), ("pl", "2,30")])
def test_decimal_comma_where_the_language_writes_one(language: str, shown: str) -> None:
    assert Renderer(language, "UTC", "plain").param(2.3) == shown


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
            text = flat(template).format(**values)
        except (KeyError, IndexError, ValueError) as error:  # pragma: no cover - reports
            pytest.fail(f"{language} {key}: {error!r}")
        assert "{" not in text and "}" not in text, key
        for n in (1, 2, 5, 22, 1.5):
            rendered = Renderer(language, "UTC", "plain").message(
                Msg(key, {name: n for name in placeholders(template)})
            )
            assert "{" not in rendered and "plural" not in rendered, (key, n)


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


def test_a_name_ending_in_a_dot_ends_the_sentence_once() -> None:
    said = Renderer("en", "UTC", "plain").message(Msg("forfeit.done", {"name": Name("Gina R.")}))
    assert said == "Forfeit recorded for Gina R."


def test_a_link_the_bot_made_is_not_broken_by_markdown_escapes() -> None:
    """Discord finds links before markdown: `my-club.org/c/a_b` must reach it as typed,
    while a player's name around it is still escaped."""
    from commands.replies import Link

    url = "https://my-club.example.org/c/ab_cd-12"
    said = Renderer("en", "UTC", "markdown").message(
        Msg("web.link", {"tournament": Name("May-Cup_*"), "url": Link(url)})
    )
    assert url in said
    assert "May\\-Cup\\_\\*" in said
    html_said = Renderer("en", "UTC", "html").message(Msg("web.announce", {"url": Link(url)}))
    assert url in html_said
    # A link that is not one the bot could have made is escaped like any text.
    odd = Renderer("en", "UTC", "markdown").param(Link("javascript:alert(1)"))
    assert odd == "javascript:alert\\(1\\)"


def test_every_language_has_a_catalog_and_every_catalog_a_language() -> None:
    assert tuple(CATALOGS) == LANGUAGES
