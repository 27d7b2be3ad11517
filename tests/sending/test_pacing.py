"""The shared pacer: a window per chat, a stricter one for groups, a global rate, pauses."""

from __future__ import annotations

from bot.sending.pacing import Window, WindowPacer


def test_five_in_five_seconds_per_chat_and_a_global_rate() -> None:
    now = [0.0]
    pacer = WindowPacer(Window(per_chat=5, seconds=5.0, per_second=7), clock=lambda: now[0])
    for _ in range(5):
        assert pacer.delay("a") == 0.0
        pacer.record("a")
    assert pacer.delay("a") == 5.0 and pacer.delay("b") == 0.0
    pacer.record("b")
    pacer.record("b")
    assert pacer.delay("c") == 1.0  # seven messages this second, across chats
    now[0] = 2.5
    assert pacer.delay("a") == 2.5 and pacer.delay("c") == 0.0


def test_a_group_window_binds_only_the_chats_it_names() -> None:
    now = [0.0]
    window = Window(per_chat=1, seconds=1.0, per_second=100, per_group=3, group_seconds=60.0)
    pacer = WindowPacer(window, clock=lambda: now[0], is_group=lambda chat: chat == "g")
    for _ in range(3):
        pacer.record("g")
        pacer.record("p")
        now[0] += 10.0
    assert pacer.delay("g") == 30.0  # the first of three leaves the minute at 60 s
    assert pacer.delay("p") == 0.0
    pacer.pause("p", 12.0)
    assert pacer.delay("p") == 12.0


def test_quiet_chats_are_forgotten_when_many_were_seen() -> None:
    now = [0.0]
    pacer = WindowPacer(Window(), clock=lambda: now[0])
    for chat in range(10_001):
        pacer.record(str(chat))
    now[0] = 100.0
    pacer.record("fresh")
    assert set(pacer._sent) == {"fresh"}
