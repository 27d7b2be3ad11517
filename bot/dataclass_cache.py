"""A disk cache of the code `@dataclass` compiles for the methods it writes (issue 17).

Why: CPython 3.11 and 3.12 write each method a dataclass gets (`__init__`, `__repr__`,
`__eq__`, a frozen class's `__setattr__`, `__delattr__` and `__hash__` ...) as source
text and compile it with an `exec` of its own, ~0.2 ms a method: the 132 dataclasses
`clubtd console` makes cost ~130 ms of its start-up in the compiler alone, the 57 of
`clubtd export` ~55 ms. The text is the same on every run, so its code is compiled once
and kept, as Python keeps a module's bytecode.

How: `install` puts `exec_cached` into the `dataclasses` module's namespace as `exec`,
shadowing the builtin there only (`_create_fn` alone calls it). It looks the source text up
in the cache, compiles it on a miss, and runs the code as `exec(text, globals, locals)`
would have: same globals, locals and builtins, compiled as `exec` compiles a string
from `dataclasses` (filename `<string>`, no `__future__` flag inherited, the
interpreter's optimisation level). The key is the whole text, never a hash of it; each
use unmarshals a fresh code object, so no two functions share one (their
specialisations stay their own), as without the cache. The one visible difference: an
audit hook (sys.addaudithook) sees a hit as `marshal.loads`, not `compile`.

What it knows: CPython 3.11 and 3.12, whose `dataclasses._create_fn` calls `exec` once
a method from a module without `__future__` features. Anywhere else (3.13 writes one
text a class in `_FuncBuilder`; another implementation) `install` does nothing and
dataclasses compile as they always did. tests/bot/test_dataclass_cache.py compares the
methods made with and without it.

The file: `dataclass-methods.<cache tag>.marshal` beside this module's bytecode (its
`__pycache__`, or under PYTHONPYCACHEPREFIX), trusted as the `.pyc` files beside it.
Read once by `install`; written by `save` (a new file renamed over the old) only when
texts were compiled and bytecode may be written (not under PYTHONDONTWRITEBYTECODE: an
image built with it set has no file unless one call ran without it).
It starts with the bytecode magic number and the optimisation level: another
interpreter's, a corrupt or an unreadable file is ignored, and replaced by `save`.
"""

from __future__ import annotations

import builtins
import contextlib
import dataclasses
import importlib.util
import marshal
import os
import sys
from types import CodeType, ModuleType
from typing import Any

KNOWN_VERSIONS = ((3, 11), (3, 12))
FORMAT = 1
# Texts kept in the file (every dataclass of the project, the platforms' too: ~1,100
# texts, 1.2 MB): beyond it (methods changed over many edits), only those the process
# that writes it used.
LIMIT = 2500


class _Cache:
    """The compiled texts of one process: those read from the file, those it added."""

    def __init__(self, path: str, stored: dict[str, bytes]) -> None:
        self.path = path
        self.stored = stored
        self.new: dict[str, bytes] = {}
        self.used: set[str] = set()

    def code(self, text: str) -> CodeType:
        """Return the code of `text` as `exec` compiles it, a fresh object each call."""
        blob = self.stored.get(text) or self.new.get(text)
        if blob is not None:
            try:
                code = marshal.loads(blob)
            except (EOFError, ValueError, TypeError):
                code = None
            if type(code) is CodeType:
                self.used.add(text)
                return code
            self.stored.pop(text, None)
        code = compile(text, "<string>", "exec", dont_inherit=True)
        self.new[text] = marshal.dumps(code)
        self.used.add(text)
        return code


_cache: _Cache | None = None


def header() -> bytes:
    """Return what the file starts with: whose bytecode it holds."""
    return importlib.util.MAGIC_NUMBER + bytes([FORMAT, sys.flags.optimize])


def knows(module: ModuleType, version: tuple[int, ...] | None = None) -> bool:
    """Return whether `module` (dataclasses) compiles its methods as this cache expects."""
    version = sys.version_info[:2] if version is None else version[:2]
    if sys.implementation.name != "cpython" or version not in KNOWN_VERSIONS:
        return False
    create_fn = getattr(module, "_create_fn", None)
    code = getattr(create_fn, "__code__", None)
    import __future__

    future = 0
    for feature in __future__.all_feature_names:
        future |= getattr(__future__, feature).compiler_flag
    return (
        isinstance(code, CodeType)
        and "exec" in code.co_names
        and not code.co_flags & future
        and "exec" not in vars(module)
    )


def exec_cached(source: Any, globals: Any = None, locals: Any = None, /, **options: Any) -> None:
    """`exec`, for the dataclasses module: a source text's code comes from the cache."""
    if globals is None:  # exec's own default: the caller's namespaces
        caller = sys._getframe(1)
        globals = caller.f_globals
        if locals is None:
            locals = caller.f_locals
    cache = _cache
    if type(source) is str and cache is not None:
        source = cache.code(source)
    elif isinstance(source, str | bytes | bytearray):
        source = compile(source, "<string>", "exec", dont_inherit=True)
    builtins.exec(source, globals, locals, **options)


def _read(path: str) -> dict[str, bytes]:
    """Return the texts and code stored at `path`; nothing when it is not ours to use."""
    try:
        with open(path, "rb") as file:
            data = file.read()
    except OSError:
        return {}
    start = header()
    if not data.startswith(start):
        return {}
    try:
        stored = marshal.loads(memoryview(data)[len(start) :])
    except (EOFError, ValueError, TypeError):
        return {}
    return stored if type(stored) is dict else {}


def install(module: ModuleType = dataclasses, path: str | None = None) -> bool:
    """Compile the dataclasses' methods through the cache (the file at `path`, by default
    beside this module's bytecode) from now on, when this Python's `module` (dataclasses)
    is one it knows; return whether it does."""
    global _cache
    if _cache is not None:
        return True
    if not knows(module):
        return False
    if path is None:
        try:
            folder = os.path.dirname(importlib.util.cache_from_source(__file__))
        except (NotImplementedError, ValueError):  # no bytecode cache on this interpreter
            return False
        path = os.path.join(folder, f"dataclass-methods.{sys.implementation.cache_tag}.marshal")
    _cache = _Cache(path, _read(path))
    module.exec = exec_cached  # type: ignore[attr-defined]
    return True


def uninstall(module: ModuleType = dataclasses) -> None:
    """Give `module` its builtin `exec` back and forget the cache (unsaved texts too)."""
    global _cache
    if vars(module).get("exec") is exec_cached:
        del module.exec
    _cache = None


def save() -> None:
    """Write the texts compiled since `install` to the file, with those read from it."""
    cache = _cache
    if cache is None or not cache.new or sys.dont_write_bytecode:
        return
    entries = {**cache.stored, **cache.new}
    if len(entries) > LIMIT:
        entries = {text: entries[text] for text in cache.used}
    temporary = f"{cache.path}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(cache.path), exist_ok=True)
        with open(temporary, "wb") as file:
            file.write(header() + marshal.dumps(entries))
        os.replace(temporary, cache.path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        return
    cache.stored = entries
    cache.new = {}
