"""Helpers for the bot tests: run `clubtd` in-process with a clean environment."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result
from typer.testing import CliRunner

from bot.cli import app

Clubtd = Callable[..., Result]
Script = Callable[[str, str], str]


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Run without the developer's CLUBTD_ variables or .env file, in tmp_path."""
    for key in list(os.environ):
        if key.startswith("CLUBTD_"):
            monkeypatch.delenv(key)
    monkeypatch.chdir(tmp_path)


@pytest.fixture
def clubtd() -> Clubtd:
    """Return a function that runs the command line and returns its result."""
    runner = CliRunner()

    def run(*args: str, input: str | None = None) -> Result:
        return runner.invoke(app, list(args), input=input, catch_exceptions=False)

    return run


@pytest.fixture
def script(tmp_path: Path) -> Script:
    """Return a function that writes a transcript file and returns its path."""

    def write(name: str, text: str) -> str:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return str(path)

    return write
