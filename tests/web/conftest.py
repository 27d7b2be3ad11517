"""The public pages' tests: run without the developer's CLUBTD_ settings, with the CLI."""

from __future__ import annotations

from tests.bot.conftest import clean_environment, clubtd

__all__ = ["clean_environment", "clubtd"]
