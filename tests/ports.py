"""Ports for servers a test starts in another process or a moment later.

A port from `bind(("127.0.0.1", 0))` is free only while the probe holds it: once closed,
the kernel may hand the same number to the next `bind(0)`, and the suite's other worker
starts emulators and stand-ins that way. A CI run lost a webhook process to exactly that
("address already in use"). So these ports come from below the ephemeral range, where the
kernel never hands one out on its own, and are distinct within one call.
"""

from __future__ import annotations

import random
import socket

_BELOW_EPHEMERAL = range(20_000, 32_000)


def free_ports(count: int = 1) -> list[int]:
    """Return `count` distinct ports below the ephemeral range that bind right now."""
    chosen: list[int] = []
    held: list[socket.socket] = []
    try:
        for candidate in random.sample(_BELOW_EPHEMERAL, 400):
            probe = socket.socket()
            try:
                probe.bind(("127.0.0.1", candidate))
            except OSError:
                probe.close()
                continue
            held.append(probe)
            chosen.append(candidate)
            if len(chosen) == count:
                return chosen
    finally:
        for probe in held:
            probe.close()
    raise RuntimeError(f"no {count} free ports below the ephemeral range")


def free_port() -> int:
    """Return one port below the ephemeral range that binds right now."""
    return free_ports(1)[0]
