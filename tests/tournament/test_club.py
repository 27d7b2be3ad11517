"""Membership (HGV-1.4) and when check-in opens (CLUB-PRESENCE), as pure rules."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from tournament import attendance
from tournament.club import Player, member_after_claim, member_on_joining
from tournament.preset import load_preset
from tournament.state import TournamentState

START = datetime(2026, 5, 1, 18, 0, tzinfo=UTC)


def player(*, member: bool) -> Player:
    return Player(id=1, club_id=1, name="Ana", created_at=START, member=member)


def test_a_director_who_registers_is_a_member_anyone_else_waits_HGV_1_4() -> None:
    assert member_on_joining(by_director=True)
    assert not member_on_joining(by_director=False)


def test_taking_an_imported_name_by_typing_it_needs_a_directors_approval_HGV_1_4() -> None:
    imported = player(member=True)
    assert not member_after_claim(imported, by_director=False, name_is_proof=True)
    assert member_after_claim(imported, by_director=True, name_is_proof=True)
    assert member_after_claim(imported, by_director=False, name_is_proof=False)
    assert not member_after_claim(player(member=False), by_director=True, name_is_proof=True)


def test_check_in_opens_the_presets_minutes_before_the_start_CLUB_PRESENCE() -> None:
    preset = load_preset("hgv-backgammon", {"reminders.checkin_minutes_before": "45"})
    state = TournamentState(id=1, name="May", preset=preset, start=START, seed=1)
    assert attendance.checkin_opens(state) == START - timedelta(minutes=45)
    assert not attendance.checkin_open(state, START - timedelta(minutes=46))
    assert attendance.checkin_open(state, START - timedelta(minutes=45))


def test_a_chat_reference_reads_and_writes_the_stored_form() -> None:
    from tournament.club import ChatRef

    assert ChatRef.parse("user:42") == ChatRef("42", private=True)
    assert str(ChatRef.parse("-100123")) == "-100123"
    assert str(ChatRef.of_user("alice")) == "user:alice"


def test_an_account_reference_reads_platform_and_user() -> None:
    from tournament.club import AccountRef

    assert AccountRef.parse(" Telegram : 123 ") == AccountRef("telegram", "123")
    assert AccountRef.parse("telegram") is None
    assert str(AccountRef("discord", "9")) == "discord:9"
