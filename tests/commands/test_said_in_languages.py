"""A command typed as a club says it is answered with the right command (INTERFACE §1)."""

from __future__ import annotations

import pytest

from commands.registry import BY_NAME, SAID_IN_LANGUAGES
from commands.resolver import fold


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("rejestracja", "register"),  # Polish, as the club calls its sign-up sheet
        ("zgłoszenie", "register"),
        ("inscripción", "register"),  # Spanish, with its accent
        ("registro", "register"),
        ("potwierdź", "confirm"),
        ("raport", "report"),
    ],
)
def test_a_word_in_the_clubs_language_names_the_command(typed: str, meant: str) -> None:
    assert SAID_IN_LANGUAGES.get(fold(typed)) == meant


def test_every_word_names_a_command() -> None:
    assert set(SAID_IN_LANGUAGES.values()) <= set(BY_NAME)
