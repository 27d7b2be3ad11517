"""The compiled-method cache of bot.dataclass_cache (issue 17: start-up).

A dataclass made with the cache must be the one made without it: the same code in
every method it generates, the same annotations and behaviour, whether the code was
compiled now or read back from the file. Where the cache does not know the Python, it
must stay out of the way.
"""

from __future__ import annotations

import dataclasses
import json
import marshal
import os
import subprocess
import sys
from dataclasses import KW_ONLY, InitVar, dataclass, field
from pathlib import Path
from types import CodeType, FunctionType, ModuleType
from typing import Any, ClassVar

import pytest

from bot import dataclass_cache
from tests.bot.test_startup import imported

ROOT = Path(__file__).resolve().parents[2]
GENERATED = (
    "__init__",
    "__repr__",
    "__eq__",
    "__lt__",
    "__le__",
    "__gt__",
    "__ge__",
    "__setattr__",
    "__delattr__",
    "__hash__",
)


# On a Python whose dataclasses the cache does not know, it installs nothing
# (test_a_python_it_does_not_know_keeps_its_own_exec): what needs it is skipped there.
known = pytest.mark.skipif(
    not dataclass_cache.knows(dataclasses), reason="the cache does not know this dataclasses"
)


@pytest.fixture(autouse=True)
def no_cache_left(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Every test starts and ends with the builtin `exec` in dataclasses; the cache may
    be written (the tests run under PYTHONDONTWRITEBYTECODE)."""
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    dataclass_cache.uninstall()
    yield
    dataclass_cache.uninstall()
    assert "exec" not in vars(dataclasses)


def make_classes() -> list[type]:
    """Return freshly made dataclasses of every kind the project uses, and some more."""

    @dataclass(frozen=True, slots=True)
    class Point:
        x: int
        y: int = 0
        tags: tuple[str, ...] = ()

    @dataclass(order=True)
    class Ranked:
        points: float
        name: str = field(compare=False, default="")
        seen: list[int] = field(default_factory=list, repr=False)
        LIMIT: ClassVar[int] = 3

    @dataclass(unsafe_hash=True, kw_only=True)
    class Keyed:
        a: int
        b: str = "b"

    @dataclass(slots=True, weakref_slot=True)
    class Mixed:
        a: int
        _: KW_ONLY
        b: int = 2
        scale: InitVar[int] = 1
        total: int = field(init=False, default=0)

        def __post_init__(self, scale: int) -> None:
            self.total = (self.a + self.b) * scale

    @dataclass(frozen=True)
    class Empty:
        pass

    @dataclass(eq=False, repr=False)
    class Plain:
        value: object = None

    return [Point, Ranked, Keyed, Mixed, Empty, Plain]


def describe_code(code: CodeType) -> tuple[Any, ...]:
    """Return everything that makes `code` what it is, nested code included."""
    consts = tuple(
        describe_code(c) if isinstance(c, CodeType) else (type(c).__name__, repr(c))
        for c in code.co_consts
    )
    return (
        code.co_code,
        consts,
        code.co_names,
        code.co_varnames,
        code.co_freevars,
        code.co_cellvars,
        code.co_filename,
        code.co_name,
        code.co_qualname,
        code.co_firstlineno,
        code.co_flags,
        code.co_argcount,
        code.co_posonlyargcount,
        code.co_kwonlyargcount,
        code.co_stacksize,
        code.co_linetable,
        code.co_exceptiontable,
    )


def describe(classes: list[type]) -> dict[str, Any]:
    """Return the generated methods of `classes`: their code, names and annotations."""
    seen: dict[str, Any] = {}
    for cls in classes:
        for name in GENERATED:
            method = cls.__dict__.get(name)
            if isinstance(method, FunctionType):
                seen[f"{cls.__name__}.{name}"] = (
                    describe_code(method.__code__),
                    method.__qualname__,
                    repr(method.__annotations__),
                    repr(method.__defaults__),
                    repr(method.__kwdefaults__),
                    [type(cell.cell_contents).__name__ for cell in method.__closure__ or ()],
                )
        seen[f"{cls.__name__}.__doc__"] = cls.__doc__
    return seen


def behaviour(classes: list[type]) -> list[Any]:
    """Return what instances of `classes` do: repr, equality, order, hash, immutability."""
    point_class, ranked_class, keyed_class, mixed_class, empty_class, plain_class = classes
    point = point_class(1, tags=("a",))
    try:
        point.x = 2
        frozen = "assigned"
    except dataclasses.FrozenInstanceError as error:
        frozen = str(error)
    mixed = mixed_class(1, b=3, scale=2)
    return [
        repr(point),
        point == point_class(1, 0, ("a",)),
        hash(point) == hash(point_class(1, 0, ("a",))),
        frozen,
        sorted([ranked_class(2.0, "b"), ranked_class(1.0, "a")])[0].name,
        repr(ranked_class(1.0, "x")),
        ranked_class(1.0, "x") == ranked_class(1.0, "y"),
        hash(keyed_class(a=1)) == hash(keyed_class(a=1)),
        repr(mixed),
        mixed.total,
        repr(empty_class()),
        empty_class() == empty_class(),
        plain_class(1) == plain_class(1),
    ]


@known
def test_methods_are_the_same_compiled_now_or_read_back(tmp_path: Path) -> None:
    plain = make_classes()
    path = tmp_path / "methods.marshal"
    assert dataclass_cache.install(path=str(path))
    compiled = make_classes()
    dataclass_cache.save()
    dataclass_cache.uninstall()
    assert dataclass_cache.install(path=str(path))
    read_back = make_classes()
    cache = dataclass_cache._cache
    assert cache is not None and cache.stored and not cache.new  # all read from the file
    assert describe(compiled) == describe(plain)
    assert describe(read_back) == describe(plain)
    assert behaviour(read_back) == behaviour(plain) == behaviour(compiled)


@known
def test_the_return_annotation_is_the_object_not_a_string(tmp_path: Path) -> None:
    """This module and bot.dataclass_cache postpone annotations; exec's compile of
    dataclasses' text does not, nor may the cache's."""
    assert dataclass_cache.install(path=str(tmp_path / "methods.marshal"))
    (point, *_) = make_classes()
    assert point.__init__.__annotations__["return"] is None


@known
def test_no_two_functions_share_a_code_object(tmp_path: Path) -> None:
    assert dataclass_cache.install(path=str(tmp_path / "methods.marshal"))
    codes = [make_classes()[0].__init__.__code__ for _ in range(3)]
    assert codes[0] == codes[1] == codes[2]
    assert len({id(code) for code in codes}) == 3


def test_exec_cached_runs_as_exec_does() -> None:
    """Its own defaults and compile flags are exec's, with or without the cache."""
    seen: list[str] = []
    dataclass_cache.exec_cached("seen.append(__name__)")  # the caller's namespaces
    assert seen == [__name__]
    for source in ("def f() -> int: pass", b"def f() -> int: pass"):
        namespace: dict[str, Any] = {}
        dataclass_cache.exec_cached(source, namespace)
        assert namespace["f"].__annotations__ == {"return": int}  # not postponed
        assert namespace["f"].__code__.co_filename == "<string>"
    namespace = {}
    dataclass_cache.exec_cached(compile("x = 1", "here", "exec"), {}, namespace)
    assert namespace == {"x": 1}


def test_a_python_it_does_not_know_keeps_its_own_exec(tmp_path: Path) -> None:
    assert not dataclass_cache.knows(dataclasses, version=(3, 13))
    assert not dataclass_cache.knows(dataclasses, version=(3, 10))
    # A dataclasses that builds its methods some other way (3.13: _FuncBuilder).
    other = ModuleType("dataclasses")
    assert not dataclass_cache.install(other, path=str(tmp_path / "methods.marshal"))
    assert "exec" not in vars(other) and dataclass_cache._cache is None

    def _create_fn(name: str) -> None:  # compiles nothing with exec
        return None

    other._create_fn = _create_fn  # type: ignore[attr-defined]
    assert not dataclass_cache.install(other, path=str(tmp_path / "methods.marshal"))
    assert "exec" not in vars(other)
    dataclasses.exec = exec  # type: ignore[attr-defined]  # someone patched it before us
    try:
        assert not dataclass_cache.install(path=str(tmp_path / "methods.marshal"))
        assert vars(dataclasses)["exec"] is exec
    finally:
        del dataclasses.exec  # type: ignore[attr-defined]
    assert not (tmp_path / "methods.marshal").exists()


@known
@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"not ours at all",
        b"\x00\x00\x00\x00" + bytes([dataclass_cache.FORMAT, sys.flags.optimize]) + b"{}",
        "header+truncated",
        "header+not a dict",
    ],
)
def test_a_foreign_or_broken_file_is_ignored_and_replaced(
    tmp_path: Path, content: bytes | str
) -> None:
    path = tmp_path / "methods.marshal"
    if content == "header+truncated":
        content = dataclass_cache.header() + b"\xfb"
    elif content == "header+not a dict":
        content = dataclass_cache.header() + b"N"  # marshalled None
    assert isinstance(content, bytes)
    path.write_bytes(content)
    plain = make_classes()
    assert dataclass_cache.install(path=str(path))
    made = make_classes()
    dataclass_cache.save()
    assert describe(made) == describe(plain)
    assert path.read_bytes().startswith(dataclass_cache.header())
    assert dataclass_cache._read(str(path))


@known
@pytest.mark.parametrize(
    "start",
    [
        b"\x00\x00\x00\x00" + bytes([dataclass_cache.FORMAT, sys.flags.optimize]),
        dataclass_cache.header()[:4] + bytes([dataclass_cache.FORMAT + 1, sys.flags.optimize]),
        dataclass_cache.header()[:5] + bytes([sys.flags.optimize + 1]),
    ],
    ids=["another interpreter", "another format", "another optimisation level"],
)
def test_code_stored_for_another_interpreter_is_not_used(tmp_path: Path, start: bytes) -> None:
    path = tmp_path / "methods.marshal"
    plain = make_classes()
    assert dataclass_cache.install(path=str(path))
    make_classes()
    dataclass_cache.save()
    dataclass_cache.uninstall()
    # The same texts, each with code that is not theirs (as another Python's would be).
    texts = list(dataclass_cache._read(str(path)))
    other = marshal.dumps(compile("def __create_fn__(): return 1", "<string>", "exec"))
    path.write_bytes(start + marshal.dumps(dict.fromkeys(texts, other)))
    assert dataclass_cache.install(path=str(path))
    assert describe(make_classes()) == describe(plain)


@known
def test_a_broken_entry_is_compiled_again(tmp_path: Path) -> None:
    path = tmp_path / "methods.marshal"
    assert dataclass_cache.install(path=str(path))
    plain = make_classes()
    dataclass_cache.save()
    dataclass_cache.uninstall()
    entries = dataclass_cache._read(str(path))
    broken = {text: b"\xfb" if i % 2 else b"N" for i, text in enumerate(entries)}
    path.write_bytes(dataclass_cache.header() + marshal.dumps(broken))
    assert dataclass_cache.install(path=str(path))
    assert describe(make_classes()) == describe(plain)


@known
def test_a_full_file_keeps_only_what_was_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "methods.marshal"
    stale = {"def gone(): pass": marshal.dumps(compile("pass", "<string>", "exec"))}
    path.write_bytes(dataclass_cache.header() + marshal.dumps(stale))
    assert dataclass_cache.install(path=str(path))
    make_classes()
    dataclass_cache.save()
    kept = dataclass_cache._read(str(path))
    assert "def gone(): pass" in kept  # under the limit, nothing is dropped
    monkeypatch.setattr(dataclass_cache, "LIMIT", len(kept))
    dataclass_cache.uninstall()
    assert dataclass_cache.install(path=str(path))
    make_classes()

    @dataclass
    class Another:  # one more class: the file would grow past the limit
        z: int

    dataclass_cache.save()
    written = set(dataclass_cache._read(str(path)))
    assert "def gone(): pass" not in written
    assert set(kept) - {"def gone(): pass"} < written  # what was used, and Another's


@known
def test_nothing_is_written_where_bytecode_may_not_be(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "methods.marshal"
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    assert dataclass_cache.install(path=str(path))
    make_classes()
    dataclass_cache.save()
    assert not path.exists()
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    (tmp_path / "a-file").write_text("not a folder", encoding="utf-8")
    dataclass_cache.uninstall()
    assert dataclass_cache.install(path=str(tmp_path / "a-file" / "methods.marshal"))
    make_classes()
    dataclass_cache.save()  # cannot write: says nothing, leaves nothing
    assert sorted(os.listdir(tmp_path)) == ["a-file"]


# Imports every module of the project and prints the generated methods of every
# dataclass it made, with the cache at argv[1] or, given "-", without it.
EVERY_DATACLASS = """
import json, pkgutil, sys, importlib
if sys.argv[1] != "-":
    from bot import dataclass_cache
    assert dataclass_cache.install(path=sys.argv[1])
from tests.bot.test_dataclass_cache import describe
names = []
for package in ("tournament", "commands", "storage", "bot"):
    names.append(package)
    root = importlib.import_module(package)
    names += [m.name for m in pkgutil.walk_packages(root.__path__, package + ".")]
classes = []
for name in names:
    if ".migrations" in name:
        continue
    module = importlib.import_module(name)
    classes += [
        value for value in vars(module).values()
        if isinstance(value, type) and value.__module__ == name
        and "__dataclass_fields__" in vars(value)
    ]
if sys.argv[1] != "-":
    sys.dont_write_bytecode = False  # the cache only: the modules are imported
    dataclass_cache.save()
described = {f"{c.__module__}.{k}": v for c in classes for k, v in describe([c]).items()}
print(json.dumps([len(classes), repr(sorted(described.items()))]))
"""


@known
def test_every_dataclass_of_the_project_is_the_same_with_the_cache(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLUBTD_")}

    def run(cache: str) -> tuple[int, str]:
        done = subprocess.run(
            [sys.executable, "-c", EVERY_DATACLASS, cache],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        count, described = json.loads(done.stdout.strip().splitlines()[-1])
        return count, described

    path = str(tmp_path / "methods.marshal")
    plain = run("-")
    assert plain[0] > 100  # the project's dataclasses were found
    assert run(path) == plain  # compiled, then saved
    assert Path(path).exists()
    assert run(path) == plain  # read back


@known
def test_the_command_line_compiles_each_method_once(tmp_path: Path) -> None:
    """`clubtd` writes the cache beside the bytecode; a call that makes the same classes
    adds nothing and prints the same; `--help` makes no dataclass and writes nothing."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLUBTD_")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(tmp_path / "pycache")
    env["PYTHONPATH"] = str(ROOT)
    db = f"sqlite:///{tmp_path / 'club.db'}"
    (tmp_path / "one.t").write_text('@club name:"Club"\n', encoding="utf-8")

    def clubtd(*args: str) -> str:
        code = "import sys; sys.argv[0] = 'clubtd'; from bot.cli import main; main()"
        done = subprocess.run(
            [sys.executable, "-c", code, *args],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        return done.stdout

    clubtd("--help")
    assert not list((tmp_path / "pycache").rglob("dataclass-methods.*"))
    assert "dataclasses" not in imported("--help")
    clubtd("console", "--script", "one.t", "--db", db)
    (cache,) = (tmp_path / "pycache").rglob("dataclass-methods.*.marshal")
    assert cache.parent.name == "bot"
    first = clubtd("export", "--db", db)
    written = cache.read_bytes()
    assert clubtd("export", "--db", db) == first
    assert json.loads(first)["club"]["name"] == "Club"
    assert cache.read_bytes() == written  # nothing new to compile, nothing written
