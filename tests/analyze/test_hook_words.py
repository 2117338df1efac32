"""commonSituations of a method the library calls itself, of a raise its function's
docstring explains, and of a raise both a library call and a program's ``main()`` reach
(issue 10; paired blind review of stop 36)."""

from __future__ import annotations

from pathlib import Path

import pytest

from errdex.scan import scan_checkout
from errdex.source import open_source

LIBRARY = '''\
class Interpolation:
    def before_get(self, parser, value):
        return value


class ExtendedInterpolation(Interpolation):
    def before_get(self, parser, value):
        if "$" in value:
            raise ValueError("'$' must be followed by '{'")
        return value


class Parser:
    def __init__(self, interpolation=None):
        if interpolation is None:
            interpolation = Interpolation()
        self._interpolation = interpolation if interpolation else Interpolation()

    def get(self, value):
        return self._interpolation.before_get(self, value)


class Store:
    def popitem(self):
        return 1

    def clear(self):
        try:
            while True:
                self.popitem()
        except KeyError:
            pass


class Chain(Store):
    def popitem(self):
        raise KeyError("no mapping left")


class Bag:
    def __getitem__(self, key):
        """Look up an item, or raise a KeyError if the key is not found."""
        raise KeyError(key)


def unwrap(func):
    """Get the object wrapped by *func*.

    :exc:`ValueError` is raised if a cycle is encountered.
    """
    seen = {id(func)}
    while hasattr(func, "__wrapped__"):
        func = func.__wrapped__
        if id(func) in seen:
            raise ValueError("wrapper loop")
        seen.add(id(func))
    return func


class Config:
    def __init__(self):
        self.handlers = []

    def _check(self):
        if self.handlers:
            raise RuntimeError("handlers already set")


def configure(handlers):
    config = Config()
    config.handlers = handlers
    config._check()


def main():
    configure([print])
'''


@pytest.fixture(scope="module")
def said(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    root: Path = tmp_path_factory.mktemp("hooks")
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "core.py").write_text(LIBRARY)
    result = scan_checkout(open_source(str(root), repo="o/hk"), repo="o/hk")
    return {r["errorMessage"]: r["commonSituations"] for r, _ in result.items}


def test_an_override_the_library_calls_is_reached_by_the_public_call(said: dict[str, str]) -> None:
    """``ConfigParser.get`` calls ``before_get`` on its interpolation: "a call of
    `ExtendedInterpolation.before_get()`" named a hook nobody calls."""
    assert said["'$' must be followed by '{'"] == (
        "It comes from a call of `Parser.get()` where the object it calls `before_get` on is"
        " an `ExtendedInterpolation`, whose `before_get` overrides"
        " `Interpolation.before_get`. Its message says what must hold:"
        " “'$' must be followed by '{'”."
    )
    # ``MutableMapping.clear`` catches what ``popitem`` raises: not a way in
    assert "clear" not in said["'no mapping left'"]


def test_the_docstring_sentence_that_names_the_class_is_quoted(said: dict[str, str]) -> None:
    """``inspect.unwrap``: its docstring says when, where the message alone was echoed."""
    assert said["wrapper loop"] == (
        "The docstring of `unwrap()` says: “ValueError is raised if a cycle is encountered”."
    )
    # a special method: the operator that runs it says more (jinja2's Context.__getitem__)
    assert said["{key}"].startswith("It comes from `x[key]`, where `x` is a `Bag` object")


def test_a_library_call_is_named_before_a_programs_main(said: dict[str, str]) -> None:
    """ "a call of `basicConfig()` or `main()`": lib2to3's ``main`` could not raise it."""
    assert said["handlers already set"] == "It comes from a call of `configure()`."


WORKER = """\
class Worker:
    def __init__(self):
        self._started = False

    @property
    def ident(self):
        if not self._started:
            raise RuntimeError("worker not started")
        return 1
"""


def test_a_property_is_read_not_called(tmp_path: Path) -> None:
    """``Thread.ident`` is a property: "a call of `Thread.ident()`" was false as written."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "work.py").write_text(WORKER)
    result = scan_checkout(open_source(str(tmp_path), repo="o/wk"), repo="o/wk")
    (record,) = [r for r, _ in result.items if r["errorMessage"] == "worker not started"]
    assert record["commonSituations"].startswith(
        "It comes from reading `x.ident` (`x` a `Worker` object)"
    )


SETTER = """\
class Worker:
    def __init__(self):
        self._started = False
        self._name = ""

    @property
    def name(self):
        return self._name

    @name.setter
    def name(self, value):
        if self._started:
            raise RuntimeError("cannot rename a started worker")
        self._name = value

    @name.deleter
    def name(self):
        if self._started:
            raise RuntimeError("cannot unname a started worker")
"""


def test_a_property_setter_is_set_and_its_deleter_deleted(tmp_path: Path) -> None:
    """``Thread.name``'s setter: "a call of `Thread.name()`" was false as written."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "work.py").write_text(SETTER)
    result = scan_checkout(open_source(str(tmp_path), repo="o/ws"), repo="o/ws")
    said = {r["errorMessage"]: r["commonSituations"] for r, _ in result.items}
    assert said["cannot rename a started worker"].startswith(
        "It comes from setting `x.name` (`x` a `Worker` object)"
    )
    assert said["cannot unname a started worker"].startswith(
        "It comes from deleting `x.name` (`x` a `Worker` object)"
    )
