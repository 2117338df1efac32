"""A method of a class users never name is reached on the object a public call returns
(paired blind review of stop 38, record bd4d354ad2742bdb: "Which public call leads here
is not known" was misleading; ``parser.add_mutually_exclusive_group()
.add_mutually_exclusive_group()`` warns)."""

from __future__ import annotations

from pathlib import Path

from .stdlib_items import ON_311, one_file_items, stdlib_items

GROUPS = '''\
class _Container:
    def add_group(self, **kwargs):
        group = _Group(self, **kwargs)
        return group

    def maybe_group(self, flag):
        if flag:
            return _Loose(self)


class _Group(_Container):
    def __init__(self, container):
        self.container = container

    def add_group(self, **kwargs):
        raise ValueError("groups cannot nest")


class _Loose(_Container):
    def __init__(self, container):
        self.container = container

    def add_group(self, **kwargs):
        raise ValueError("loose groups cannot nest")


class Parser(_Container):
    """The parser users build."""
'''


def _record(tmp_path: Path, message: str) -> tuple[dict[str, object], dict[str, object]]:
    ((record, evidence),) = [
        (r, e)
        for r, e in one_file_items(tmp_path, "groups.py", GROUPS)
        if r["errorMessage"] == message
    ]
    return record, evidence


def test_method_of_what_a_public_call_returns(tmp_path: Path) -> None:
    """``Parser.add_group()`` (inherited from ``_Container``) returns a new ``_Group``,
    whose own ``add_group`` raises: that is the way, said in the caller's terms."""
    record, evidence = _record(tmp_path, "groups cannot nest")
    assert evidence["entryPoints"] == []
    assert evidence["madeBy"] == {
        "qualname": "groups.Parser.add_group",
        "path": "groups.py",
        "line": 2,
        "returns": "groups._Group",
        "method": "groups._Group.add_group",
    }
    assert record["commonSituations"] == (
        "It comes from calling `add_group()` on the `_Group` object that "
        "`Parser.add_group()` returns."
    )


def test_a_function_that_may_fall_off_is_no_factory(tmp_path: Path) -> None:
    """``maybe_group`` returns ``None`` when ``flag`` is false (it falls off the end):
    no way is claimed through it."""
    record, evidence = _record(tmp_path, "loose groups cannot nest")
    assert "madeBy" not in evidence
    assert "maybe_group" not in str(record["commonSituations"])


@ON_311
def test_stdlib_argparse_groups() -> None:
    """Read and run in CPython 3.11 (``-W error``): nesting either kind of group warns,
    and a positional argument on a mutually exclusive group raises."""
    made = {
        r["id"]: (e.get("madeBy") or {}).get("qualname")
        for r, e in stdlib_items("argparse.py")
        if r["id"] in ("bd4d354ad2742bdb", "6e4b7dbe2f1b9a14", "896b8d5da2c78179")
    }
    assert made == {
        "bd4d354ad2742bdb": "argparse.ArgumentParser.add_mutually_exclusive_group",
        "6e4b7dbe2f1b9a14": "argparse.ArgumentParser.add_argument_group",
        "896b8d5da2c78179": "argparse.ArgumentParser.add_mutually_exclusive_group",
    }


SOMETIMES = """\
import functools

_current = None


class _Group:
    def nest(self):
        raise RuntimeError("nesting groups is not allowed")


class _Impl:
    def run(self):
        raise LookupError("no backend")


class _Opts:
    @property
    def name(self):
        return "x"

    @name.setter
    def name(self, v):
        raise AttributeError("name is read-only")

    @functools.cached_property
    def size(self):
        raise OSError("size unknown")


def coerce(value):
    if isinstance(value, str):
        value = _Group()
    return value


def install(obj):
    global _current
    _current = obj


def get():
    global _current
    if _current is None:
        _current = _Impl()
    return _current


def options():
    return _Opts()
"""


def _made(tmp_path: Path) -> dict[str, tuple[object, str]]:
    return {
        str(r["errorMessage"]): (e.get("madeBy"), str(r["commonSituations"]))
        for r, e in one_file_items(tmp_path, "made.py", SOMETIMES)
    }


def test_a_parameter_or_global_set_only_sometimes_is_no_new_object(tmp_path: Path) -> None:
    """``coerce`` returns its argument unless it is a string, ``get`` the object cached
    (or installed) in a global: neither always returns a new ``_Group`` / ``_Impl``."""
    made = _made(tmp_path)
    assert made["nesting groups is not allowed"][0] is None
    assert made["no backend"][0] is None


def test_a_setter_is_no_call_and_a_cached_property_is_read(tmp_path: Path) -> None:
    """Assigning ``name`` runs the setter (no call of ``name()``); ``size`` is read."""
    made = _made(tmp_path)
    assert made["name is read-only"][0] is None
    assert "name()" not in made["name is read-only"][1]
    assert made["size unknown"][1] == (
        "It comes from reading `size` of the `_Opts` object that `options()` returns."
    )
