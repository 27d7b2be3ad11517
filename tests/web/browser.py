"""Debian's chromium driven by Playwright (PLATFORMS.md): where it is, or why not.

The browser tests skip with the reason when chromium or Playwright is missing, unless
CLUBTD_REQUIRE_BROWSER=1 (CI, where `make test` installs both): then they fail.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
from pathlib import Path

import pytest

CHROMIUM = ("/usr/bin/chromium", "/usr/bin/chromium-browser")
# Where the screenshots go, for anyone to look at (gitignored).
SCREENSHOTS = Path(__file__).resolve().parents[2] / "web-screenshots"


def chromium_or_skip() -> str:
    """Return chromium's path; skip (or fail under CLUBTD_REQUIRE_BROWSER=1) without it."""
    reason = None
    found = next((p for p in CHROMIUM if Path(p).exists()), None) or shutil.which("chromium")
    if found is None:
        reason = "chromium is not installed (apt-get install -y chromium)"
    elif importlib.util.find_spec("playwright") is None:
        reason = "playwright is not installed (pip install -e '.[dev]')"
    if reason is not None:
        if os.environ.get("CLUBTD_REQUIRE_BROWSER") == "1":
            pytest.fail(f"CLUBTD_REQUIRE_BROWSER=1 but {reason}")
        pytest.skip(reason)
    assert found is not None
    return found
