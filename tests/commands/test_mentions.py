"""Mentions that ping (issue 20): exactly the named users, on the platform they use."""

from __future__ import annotations

from bot.discord_adapter.rendering import render as discord_render
from bot.telegram_adapter.formatting import render as telegram_render
from commands.mentions import Addresses, address, pinged
from commands.messages import Mention
from commands.rendering import Renderer
from commands.replies import Reply, from_payload, msg, to_payload

ACCOUNTS = {
    1: [("discord", "810001"), ("telegram", "5001")],
    2: [("telegram", "5002")],  # no Discord account: named, not pinged there
}
FOUND = Addresses(ACCOUNTS, (("discord", "800001"), ("telegram", "4001")))


def _call() -> Reply:
    return Reply(
        (
            msg(
                "call.match",
                table=1,
                match=3,
                white=Mention("<b>Ana</b> @everyone", 1),
                black=Mention("Bob", 2),
            ),
        )
    )


def _dispute() -> Reply:
    return Reply((msg("call.directors", directors=Mention("", directors=True), match=3),))


def test_a_round_call_pings_on_discord_exactly_the_players_with_an_account_there() -> None:
    out = discord_render(address(_call(), "discord", FOUND), "en", "UTC")
    assert out.contents == ("Table 1: <@810001> (white) v Bob, match 3.",)
    allowed = out.allowed_mentions().to_dict()
    assert allowed == {"parse": [], "users": [810001]}


def test_a_round_call_links_telegram_users_by_id_with_their_names_escaped() -> None:
    out = telegram_render(address(_call(), "telegram", FOUND), "en", "UTC")
    text = "\n".join(out.chunks)
    assert '<a href="tg://user?id=5001">&lt;b&gt;Ana&lt;/b&gt; @\u200beveryone</a>' in text
    assert '<a href="tg://user?id=5002">Bob</a>' in text


def test_the_console_names_the_players() -> None:
    shown = Renderer("en", "UTC", "plain").reply(address(_call(), "console", FOUND)).text
    assert shown == "Table 1: <b>Ana</b> @\u200beveryone (white) v Bob, match 3."


def test_a_dispute_calls_the_directors_and_the_director_role_once() -> None:
    reply = address(_dispute(), "discord", FOUND)
    assert pinged(reply) == ("800001",)
    out = discord_render(reply, "en", "UTC", director_role="700")
    assert out.contents == ("<@&700> <@800001>: match 3 is disputed and needs your decision.",)
    allowed = out.allowed_mentions().to_dict()
    assert allowed == {"parse": [], "users": [800001], "roles": [700]}
    # No director known here: the word, and nobody pinged.
    bare = discord_render(address(_dispute(), "discord", Addresses()), "en", "UTC")
    assert bare.contents == ("Directors: match 3 is disputed and needs your decision.",)
    assert bare.allowed_mentions().to_dict() == {"parse": []}


def test_a_mention_survives_the_outbox() -> None:
    reply = address(_call(), "discord", FOUND)
    assert from_payload(to_payload(reply)) == reply
