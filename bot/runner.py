"""`clubtd run`: the chat adapters whose tokens are configured, plus the scheduler,
in one event loop (ARCHITECTURE idea 3: one process by default)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import signal
import sys
from collections.abc import Callable, Mapping
from typing import Protocol, TextIO

from bot.bootstrap import App, build
from bot.clock import RealClock
from bot.collector import freeze_survivors
from bot.settings import Settings

log = logging.getLogger("clubtd.run")


class Adapter(Protocol):
    """A chat platform: receives updates, runs commands, drains its outbox rows."""

    platform: str

    async def start(self) -> None: ...
    async def stop(self) -> None: ...


AdapterFactory = Callable[[App], Adapter]

# Which setting turns on which adapter; the adapters register here as they arrive.
TOKENS: dict[str, str] = {"telegram": "CLUBTD_TELEGRAM_TOKEN", "discord": "CLUBTD_DISCORD_TOKEN"}


def _telegram(app: App) -> Adapter:
    # Imported here: python-telegram-bot loads only when a Telegram token is configured.
    from bot.telegram_adapter import from_app

    return from_app(app)


def _discord(app: App) -> Adapter:
    # Imported here: discord.py loads only when a Discord token is configured.
    from bot.discord_adapter import from_app

    return from_app(app)


ADAPTERS: dict[str, AdapterFactory] = {"telegram": _telegram, "discord": _discord}


def configured(settings: Settings) -> list[str]:
    """Return the platforms whose token is set, in a fixed order."""
    tokens = {"telegram": settings.telegram_token, "discord": settings.discord_token}
    return [platform for platform in TOKENS if tokens[platform] is not None]


def serve(
    settings: Settings,
    *,
    adapters: Mapping[str, AdapterFactory] | None = None,
    stop: asyncio.Event | None = None,
    err: TextIO | None = None,
) -> int:
    """Run until interrupted; return the exit status (2 when nothing can run)."""
    adapters = ADAPTERS if adapters is None else adapters
    err = err or sys.stderr
    wanted = configured(settings)
    if not wanted and settings.web_listen is not None:
        # Only the public pages (INTERFACE §6): they still need the scheduler's sweeps.
        return asyncio.run(_serve(settings, [], stop, err))
    if not wanted:
        print(
            "clubtd run: no chat adapter is configured. Set CLUBTD_TELEGRAM_TOKEN to run the "
            "Telegram adapter, or CLUBTD_DISCORD_TOKEN to run the Discord adapter, or "
            "CLUBTD_WEB_LISTEN to serve the public pages (in the environment or .env). To try "
            "the bot without a chat platform: clubtd console, or clubtd demo.",
            file=err,
        )
        return 2
    missing = [platform for platform in wanted if platform not in adapters]
    for platform in missing:
        print(
            f"clubtd run: {TOKENS[platform]} is set, but this version of clubtd has no "
            f"{platform.capitalize()} adapter yet.",
            file=err,
        )
    available = [platform for platform in wanted if platform in adapters]
    if not available:
        return 2
    return asyncio.run(_serve(settings, [adapters[p] for p in available], stop, err))


async def _serve(
    settings: Settings,
    factories: list[AdapterFactory],
    stop: asyncio.Event | None,
    err: TextIO | None = None,
) -> int:
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(sig, stop.set)
    app = await build(settings, clock=RealClock())
    started: list[Adapter] = []
    freezer: asyncio.Task[None] | None = None
    pages = app.web_server() if settings.web_listen is not None else None
    try:
        await app.scheduler.start()
        if pages is not None:
            try:
                await pages.start()
            except OSError as error:  # the port is taken, the address is not ours
                print(
                    f"clubtd run: the public pages could not listen on "
                    f"{settings.web_listen}: {error}",
                    file=err or sys.stderr,
                )
                return 1
            log.info("public pages on %s:%s", pages.host, pages.port)
        for factory in factories:
            adapter = factory(app)
            try:
                await adapter.start()
            except Exception as error:  # a bad token, the platform unreachable: say so
                log.exception("%s adapter did not start", adapter.platform)
                print(
                    f"clubtd run: the {adapter.platform} adapter could not start: {error}",
                    file=err or sys.stderr,
                )
                return 1
            started.append(adapter)
            log.info("%s adapter started", adapter.platform)
        # What start-up made (modules, compiled statements, the adapters) lives as long
        # as the process: moved out of the collector's sight, the full collections that
        # walked all of it (40-140 ms of a stopped event loop, in the middle of someone's
        # command) only walk what was made since; and so on (bot/collector.py).
        gc.freeze()
        freezer = asyncio.create_task(freeze_survivors())
        await stop.wait()
    finally:
        if freezer is not None:
            freezer.cancel()
        if pages is not None:
            await pages.stop()
        for adapter in reversed(started):
            try:
                await adapter.stop()
            except Exception:
                log.exception("%s adapter did not stop cleanly", adapter.platform)
        await app.close()
        gc.unfreeze()  # back in sight: a caller that goes on (a test) may collect it
    return 0
