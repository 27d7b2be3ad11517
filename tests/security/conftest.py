"""The Telegram harness for the security findings that go through the adapter."""

from __future__ import annotations

import pytest

from tests.telegram.conftest import harness

__all__ = ["harness"]  # sqlite_url comes from the root conftest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # python-telegram-bot warns about RetryAfter.retry_after's future type on every 429.
    for item in items:
        if "tests/security" in str(item.fspath):
            item.add_marker(
                pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")
            )
