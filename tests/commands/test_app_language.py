"""A newcomer is answered in their app's language until a club or their own choice
says otherwise (Discord's locale, Telegram's language_code)."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from commands.languages import language_of
from tests.commands.chat import Chat


def test_a_platform_tag_names_the_language_it_starts_with() -> None:
    assert language_of("es-ES") == "es"
    assert language_of("es-419") == "es"
    assert language_of("pl") == "pl"
    assert language_of("ro_RO") == "ro"
    assert language_of("en-US") == "en"
    assert language_of("de") is None  # not spoken: the configured language answers
    assert language_of("") is None
    assert language_of(None) is None


async def _said(chat: Chat, user: str, text: str, locale: str | None, *, dm: bool) -> str:
    response = await chat.response(user, text, dm=dm, locale=locale)
    assert response is not None
    return chat.text(response)


async def test_a_stranger_writing_privately_is_answered_in_their_apps_language(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    said = await _said(chat, "rocio", "/standings", "es-ES", dm=True)
    assert said.startswith("Inscríbete primero donde se reúne tu club"), said
    said = await _said(chat, "zofia", "/standings", "pl", dm=True)
    assert "/register" in said and not said.startswith("Register first"), said
    # A language the bot does not speak: the configured one.
    assert (await _said(chat, "hans", "/standings", "de", dm=True)).startswith("Register first")
    # A chat that is no club yet answers the person in their language too.
    said = await _said(chat, "rocio", "/standings", "es-419", dm=False)
    assert said.startswith("Este chat todavía no es un club"), said


async def test_a_clubs_language_outranks_the_app_language(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await chat.say("ana", "/club language:es")
    await chat.say("bob", "/register")
    for locale in ("en-US", "pl"):
        # In the club's chat, and privately to a member: the club's language.
        said = await _said(chat, "bob", "/standings", locale, dm=False)
        assert said.startswith("Todavía no hay torneo."), said
        said = await _said(chat, "bob", "/me", locale, dm=True)
        assert said == (
            "bob\nAhora no estás inscrito en ningún torneo; el club anunciará el próximo"
            " en su grupo."
        ), said
