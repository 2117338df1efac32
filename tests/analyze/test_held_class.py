"""A raise of a class held in a name: what it calls, and "decided at run time" only where
the function binds the name (blind review 2026-12-06: ``dbm.open``'s ``raise
error[0](...)``, ``error`` a module constant, was "decided at run time", held in `…`)."""

from __future__ import annotations

from pathlib import Path

from .stdlib_items import one_file_items

DBM = """\
class error(Exception):
    pass


error = (error, OSError)


def open_db(result):
    if result == "":
        raise error[0]("db type could not be determined")
    return result


def reraise(kind):
    raise kind("failed")


def warn(message, category):
    if not isinstance(message, Warning):
        message = category(message)
    raise message


def undefined(name, errors):
    err = errors.make("undefined " + name)
    err.code = 11
    raise err
"""


def test_a_called_module_constant_is_named_and_not_said_decided_at_run_time(
    tmp_path: Path,
) -> None:
    found = {r["lineNumber"]: r for r, _ in one_file_items(tmp_path, "db.py", DBM)}
    doc = found[10]["documentation"]
    # the module constant's item is the class itself now (extract/python/held_tuple, v34),
    # so the record names it, where it once said what calling `error[0]` gives
    assert doc.startswith("`db.open_db` raises `error` at db.py:10"), doc
    assert found[10]["errorClass"] == "error"
    assert "decided at run time" not in doc and "`…`" not in doc
    # a parameter's class is the caller's: decided at run time, truly
    assert "its class is decided at run time" in found[15]["documentation"]
    # a local bound once to a call: which call is said, and the parameter decides it
    doc = found[27]["documentation"]
    assert "raises `err`, which holds what calling `errors.make` gave" in doc, doc
    assert "its class is decided at run time" in doc
    # a parameter rebound to a call may still hold what the caller passed
    assert "which holds" not in found[21]["documentation"]
