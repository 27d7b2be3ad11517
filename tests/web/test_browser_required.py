"""CI sets CLUBTD_REQUIRE_BROWSER=1: a missing chromium fails the browser tests there
instead of skipping them (as CLUBTD_REQUIRE_POSTGRES does for PostgreSQL)."""

from __future__ import annotations

import pytest

from tests.web import browser


def _no_chromium(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(browser, "CHROMIUM", ("/nonexistent/chromium",))
    monkeypatch.setattr(browser.shutil, "which", lambda name: None)


def test_a_missing_browser_skips_on_a_developers_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    _no_chromium(monkeypatch)
    monkeypatch.delenv("CLUBTD_REQUIRE_BROWSER", raising=False)
    with pytest.raises(pytest.skip.Exception, match="apt-get install -y chromium"):
        browser.chromium_or_skip()


def test_a_missing_browser_fails_in_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    _no_chromium(monkeypatch)
    monkeypatch.setenv("CLUBTD_REQUIRE_BROWSER", "1")
    with pytest.raises(pytest.fail.Exception, match="CLUBTD_REQUIRE_BROWSER=1"):
        browser.chromium_or_skip()
