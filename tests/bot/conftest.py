"""Helpers for the bot tests: run `clubtd` in-process with a clean environment."""

from __future__ import annotations

import contextlib
import io
import os
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.cli import run_command_line


@dataclass(frozen=True)
class Result:
    """What one `clubtd` call did: its exit status and what it wrote."""

    exit_code: int
    stdout: str
    stderr: str


@contextlib.contextmanager
def _keyboard(text: str) -> Iterator[None]:
    """Read `text` as what the user types (sys.stdin) for the duration."""
    typed, sys.stdin = sys.stdin, io.StringIO(text)
    try:
        yield
    finally:
        sys.stdin = typed


def invoke(*args: str, input: str | None = None) -> Result:
    """Run `clubtd ARGS` in this process, `input` typed on the keyboard."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), _keyboard(input or ""):
        try:
            status = run_command_line(list(args))
        except SystemExit as stop:  # --help, or a usage error
            status = stop.code if isinstance(stop.code, int) else int(stop.code is not None)
    return Result(status, out.getvalue(), err.getvalue())


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
    return invoke


@pytest.fixture
def script(tmp_path: Path) -> Script:
    """Return a function that writes a transcript file and returns its path."""

    def write(name: str, text: str) -> str:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return str(path)

    return write
