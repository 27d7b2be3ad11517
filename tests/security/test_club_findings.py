"""Issue 9, who may act for a club (findings 1 and 4): link codes and director rights,
each attack replayed through the real command layer and now refused, and logged."""

from __future__ import annotations

import re

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from commands.config import CommandConfig
from commands.dispatch import Response, handle
from commands.rendering import Renderer
from commands.session import Invocation
from storage import tables as t
from tests.commands.chat import Chat


async def in_chat(
    chat: Chat,
    room: str,
    user: str,
    text: str,
    *,
    admin: bool = False,
    directors: frozenset[tuple[str, str]] | None = None,
    platform: str = "console",
) -> tuple[Response | None, str]:
    """Type `text` as `user` in another chat `room` (a group of its own)."""
    inv = Invocation(platform, room, user, user, text, chat.now, chat_admin=admin)
    config = chat.config if directors is None else CommandConfig(directors=directors)
    response = await handle(inv, uow_factory=chat.uow_factory, config=config)
    await chat.drain()
    if response is None:
        return None, ""
    return response, Renderer("en", "UTC", "plain").reply(response.reply).text


async def audit(engine: AsyncEngine) -> list[tuple[str, str]]:
    async with engine.connect() as conn:
        rows = await conn.execute(select(t.audit_log.c.action, t.audit_log.c.actor))
        return [(r.action, r.actor) for r in rows]


async def link_code(chat: Chat) -> tuple[Response, str]:
    response = await chat.response("ana", "/club link")
    assert response is not None
    text = Renderer("en", "UTC", "plain").reply(response.reply).text
    found = re.search(r"Link code (\S+) ", text)
    assert found is not None, text
    return response, found.group(1)


# -- 1: a plain member redeemed a group-shown 24-bit code in her own group --


async def test_finding_1_a_link_code_is_long_private_and_secret(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await chat.say("ana", "/club")
    response, code = await link_code(chat)
    assert response.reply.private and response.reply.secret  # never shown in the group
    assert len(code) >= 22  # 128 random bits, URL-safe
    async with engine.connect() as conn:
        stored = (await conn.execute(select(t.link_codes.c.code))).scalars().all()
    assert stored and code not in stored  # only its hash is kept
    assert not any(code in text for _, text in chat.posted)


async def test_finding_1_only_a_director_of_the_other_chat_may_redeem(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await chat.say("ana", "/club")
    _, code = await link_code(chat)
    _, answer = await in_chat(chat, "eves-group", "eve", f"/club join {code}")
    assert "Only directors" in answer
    _, answer = await in_chat(chat, "eves-group", "eve", "/tournament new name:X")
    assert "not a club yet" in answer


async def test_finding_1_a_redeemed_code_waits_for_the_clubs_confirmation(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await chat.say("ana", "/club")
    _, code = await link_code(chat)
    # Eve administers her own group and got hold of the code.
    _, answer = await in_chat(chat, "eves-group", "eve", f"/club join {code}", admin=True)
    assert "confirms it with /club confirm" in answer
    _, again = await in_chat(chat, "eves-group", "eve", f"/club join {code}", admin=True)
    assert "unknown or expired" in again  # single use
    # Nothing flows there, and nothing can be done there, until the club confirms.
    _, answer = await in_chat(chat, "eves-group", "eve", '/club name:"Taken"', admin=True)
    assert "must confirm" in answer
    assert any("/club confirm 2" in text for _, text in chat.posted)  # the club was asked
    async with chat.uow_factory() as uow:
        club = await uow.clubs.for_chat("console", "club")
        assert club is not None and club.name != "Taken"
        assert ("console", "eves-group") not in await uow.clubs.chats(club.id)
    # A director of the club confirms: now announcements go to both chats.
    answer = await chat.say("ana", "/club confirm 2")
    assert "confirmed" in answer
    async with chat.uow_factory() as uow:
        assert ("console", "eves-group") in await uow.clubs.chats(club.id)
    actions = [action for action, _ in await audit(engine)]
    assert [a for a in actions if a.startswith("club_")] == [
        "club_link",
        "club_join",
        "club_join_failed",
        "club_link_confirmed",
    ]


async def test_finding_1_wrong_codes_are_limited_and_logged(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await chat.say("ana", "/club")
    _, code = await link_code(chat)
    for attempt in range(5):
        _, answer = await in_chat(chat, "g", "eve", f"/club join WRONG{attempt}", admin=True)
        assert "unknown or expired" in answer
    _, answer = await in_chat(chat, "g", "eve", f"/club join {code}", admin=True)
    assert "Too many wrong codes" in answer
    failed = [actor for action, actor in await audit(engine) if action == "club_join_failed"]
    assert failed == ["console:eve"] * 5


# -- 4: CLUBTD_DIRECTORS was copied into the database and never removed --


async def test_finding_4_a_director_removed_from_the_setting_loses_the_rights(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await chat.say("ana", "/club")
    await chat.say("ana", "/register")
    new_cup = '/tournament new name:"Cup" start:"2026-02-01 20:00"'
    assert "open for entries" in await chat.say("ana", new_cup)
    # The operator removes ana from CLUBTD_DIRECTORS and restarts.
    _, answer = await in_chat(chat, "club", "ana", "/draw", directors=frozenset())
    assert "Only directors" in answer
    async with engine.connect() as conn:
        assert (await conn.execute(select(t.directors.c.id))).first() is None


async def test_finding_4_rights_stored_only_by_director_add_and_logged(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await chat.say("ana", "/club")
    await chat.say("bob", "/register")
    assert "Only directors" in await chat.say("bob", "/director add bob")
    assert "now a director" in await chat.say("ana", "/director add bob")
    assert "bob" in await chat.say("bob", "/director")
    assert "is no longer a director" in await chat.say("ana", "/director remove bob")
    assert "Only directors" in await chat.say("bob", "/draw")
    log = [(action, actor) for action, actor in await audit(engine) if "director" in action]
    assert [action for action, _ in log] == ["director_add", "director_remove"]
    assert all(actor.startswith("console:ana") for _, actor in log)


# -- 2: private commands and buttons acted on the player's oldest club --


async def test_finding_2_a_private_command_asks_which_club(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await chat.say("ana", '/club name:"Alpha"')
    await chat.say("bob", "/register")
    await in_chat(chat, "beta-group", "ana", '/club name:"Beta"')
    await in_chat(chat, "beta-group", "bob", "/register")
    answer = await chat.say("bob", "/me", dm=True)
    assert "several clubs (Alpha, Beta)" in answer  # no longer Alpha, silently
    answer = await chat.say("bob", '/register club:"Beta"', dm=True)
    assert "Beta" in answer
    async with chat.uow_factory() as uow:
        beta = await uow.clubs.for_chat("console", "beta-group")
        assert beta is not None
    response = await chat.response("bob", f"/me club:{beta.id}", dm=True)
    assert response is not None and not response.refused
    assert "not in a club called Gamma" in await chat.say("bob", "/me club:Gamma", dm=True)


async def test_finding_2_private_buttons_name_their_club(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await chat.say("ana", '/club name:"Alpha"')
    await chat.say("bob", "/register")  # a player of the club; no tournament yet
    await chat.say("ana", '/tournament new name:"Cup" start:"2026-02-01 20:00" approval:no')
    response = await chat.response("bob", "/register", dm=True)
    assert response is not None and not response.refused and response.reply.buttons
    async with chat.uow_factory() as uow:
        alpha = await uow.clubs.for_chat("console", "club")
        assert alpha is not None
    assert all(f" club:{alpha.id} " in b.command for b in response.reply.buttons)
    await chat.wait(60 * 55)  # reminders go to bob privately, with buttons
    async with engine.connect() as conn:
        rows = await conn.execute(select(t.outbox.c.chat, t.outbox.c.payload))
        private = [p for c, p in rows if c == "user:bob" and p.get("buttons")]
    assert private and all(
        f" club:{alpha.id} " in b["command"] for p in private for b in p["buttons"]
    )


# -- 3: anyone could claim a director-entered player by typing the same name --


async def claim_code(chat: Chat, name: str) -> str:
    """Return the claim code the director gets, privately, for `name`."""
    response = await chat.response("ana", f'/director claim "{name}"')
    assert response is not None and response.reply.private and response.reply.secret
    text = Renderer("en", "UTC", "plain").reply(response.reply).text
    found = re.search(r"claim:(\S+)$", text)
    assert found is not None, text
    return found.group(1)


async def in_dm(chat: Chat, user: str, text: str, platform: str = "telegram") -> str:
    """`user` writes `text` to the bot privately on `platform`."""
    inv = Invocation(platform, f"user:{user}", user, user, text, chat.now, private=True)
    response = await handle(inv, uow_factory=chat.uow_factory, config=chat.config)
    await chat.drain()
    return "" if response is None else Renderer("en", "UTC", "plain").reply(response.reply).text


async def test_finding_3_typing_an_entered_name_does_not_make_you_that_player(
    engine: AsyncEngine,
) -> None:
    chat = Chat(engine)
    await chat.say("ana", "/club")
    await chat.say("ana", '/addplayer name:"Ana P."')
    async with chat.uow_factory() as uow:  # the club's Telegram group too
        club = await uow.clubs.for_chat("console", "club")
        assert club is not None
        await uow.clubs.link_chat(club.id, "telegram", "club")
        await uow.commit()

    async def on_telegram(user: str, text: str) -> str:
        return (await in_chat(chat, "club", user, text, platform="telegram"))[1]

    answer = await on_telegram("666", '/register name:"Ana P."')
    assert "ask a director for a claim code" in answer
    async with engine.connect() as conn:
        assert (await conn.execute(select(t.accounts.c.id))).first() is None
    code = await claim_code(chat, "Ana P.")
    assert "claim code does not work" in await in_dm(chat, "666", "/register claim:1-guessguess")
    answer = await in_dm(chat, "4242", f'/register name:"Ana P." claim:{code}')
    assert "Ana P." in answer and "claim code" not in answer
    again = await in_dm(chat, "666", f'/register name:"Ana P." claim:{code}')
    assert "claim code does not work" in again  # the code worked once, for the real Ana
    actions = [action for action, _ in await audit(engine)]
    assert "claim_code" in actions and "claim" in actions


# -- issue 16, C6: /director add ana made "Anastasia" a director by a name prefix --


async def test_c6_rights_go_only_by_an_exact_name_or_a_confirmation(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await chat.say("ana", "/club")
    await chat.say("anastasia", '/register name:"Anastasia"')
    for verb in ("add", "claim"):
        response = await chat.response("ana", f"/director {verb} anas")
        assert response is not None
        answer = Renderer("en", "UTC", "plain").reply(response.reply).text
        assert 'Did you mean Anastasia? Type /director add "Anastasia"'.replace("add", verb) in (
            answer
        )
        # A claim code is not a right: each is said as what it is.
        said = "A claim code goes" if verb == "claim" else "Director rights go"
        assert answer.startswith(said), answer
    assert "Only directors" in await chat.say("anastasia", "/draw")  # nothing was given
    (button,) = response.reply.buttons
    assert "for:ana" in button.command  # the confirmation is the asker's own
    assert "is now a director" in await chat.say("ana", '/director add "Anastasia"')
    answer = await chat.say("ana", "/director remove Anastasi")
    assert "Did you mean Anastasia?" in answer
    assert "Only directors" not in await chat.say("anastasia", "/draw")  # still a director


# -- issue 16, A4: claim codes typed in the group; a typo in the name created a player --


async def entered_ana(chat: Chat) -> None:
    await chat.say("ana", "/club")
    await chat.say("ana", '/addplayer name:"Ana P."')
    async with chat.uow_factory() as uow:  # the club's Telegram group too
        club = await uow.clubs.for_chat("console", "club")
        assert club is not None
        await uow.clubs.link_chat(club.id, "telegram", "club")
        await uow.commit()


async def test_a4_a_claim_code_typed_in_a_group_is_spent_and_refused(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await entered_ana(chat)
    code = await claim_code(chat, "Ana P.")
    _, answer = await in_chat(chat, "club", "4242", f"/register claim:{code}", platform="telegram")
    assert "only to me in a private chat" in answer and "no longer works" in answer
    async with engine.connect() as conn:
        assert (await conn.execute(select(t.accounts.c.id))).first() is None
    # Mallory read it in the group and tries it privately: it is spent.
    assert "claim code does not work" in await in_dm(chat, "666", f"/register claim:{code}")
    async with engine.connect() as conn:
        assert (await conn.execute(select(t.accounts.c.id))).first() is None
    assert "claim_code_seen" in [action for action, _ in await audit(engine)]


async def test_a4_a_claim_code_never_creates_a_player(engine: AsyncEngine) -> None:
    """ "Ana P" for "Ana P.": the code says who it is for, so no new player is made and
    the code is used up by the person it was given to."""
    chat = Chat(engine)
    await entered_ana(chat)
    code = await claim_code(chat, "Ana P.")
    answer = await in_dm(chat, "4242", f'/register name:"Ana P" claim:{code}')
    assert "Ana P." in answer and "claim code" not in answer
    async with engine.connect() as conn:
        names = (await conn.execute(select(t.players.c.name))).scalars().all()
        accounts = (await conn.execute(select(t.accounts.c.external_id))).scalars().all()
    assert sorted(names) == ["Ana P."] and accounts == ["4242"]
    answer = await in_dm(chat, "777", f'/register name:"Someone New" claim:{code}x')
    assert "claim code does not work" in answer
    async with engine.connect() as conn:
        assert len((await conn.execute(select(t.players.c.id))).all()) == 1


async def test_a4_claim_codes_are_pruned_after_seven_days(engine: AsyncEngine) -> None:
    chat = Chat(engine)
    await entered_ana(chat)
    await chat.say("ana", '/addplayer name:"Jorge P."')
    await claim_code(chat, "Ana P.")
    used = await claim_code(chat, "Jorge P.")
    await in_dm(chat, "4242", f"/register claim:{used}")

    async def stored() -> int:
        async with engine.connect() as conn:
            keys = (await conn.execute(select(t.meta.c.key))).scalars().all()
        return sum(k.startswith("claim.") for k in keys)

    await chat.wait(1)
    assert await stored() == 1  # the used one went with the sweep; Ana's still waits
    await chat.wait(7 * 24 * 60)
    assert await stored() == 0  # expired after 7 days


async def test_a4_a_claim_code_reads_without_look_alikes_and_takes_capitals(
    engine: AsyncEngine,
) -> None:
    """Codes like "1-70nPvI8Cc7tl" were read to older players off a phone: I or l, C or
    c? A code is lower case now, in groups of five, without 0, o, 1, l or i, and typed
    in capitals (as written down, or a phone's capital first letter) it still works."""
    chat = Chat(engine)
    await entered_ana(chat)
    code = await claim_code(chat, "Ana P.")
    club, *groups = code.split("-")
    assert club.isdigit() and [len(g) for g in groups] == [5, 5, 5], code
    assert set("".join(groups)) <= set("23456789abcdefghjkmnpqrstuvwxyz"), code
    answer = await in_dm(chat, "4242", f"/register claim:{code.upper()}")
    assert "Ana P." in answer and "claim code" not in answer, answer
