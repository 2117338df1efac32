"""Catch advice and tryCatchPattern in the caller's terms (issue 10, deliver 3 and 5).

The class a caller sees is the one a converting handler on the way raises (``tarfile``'s
``SubsequentHeaderError`` -> ``ReadError``; argparse's ``ArgumentError`` -> ``SystemExit``
through ``self.error()``), a snippet is written only around a public call that reaches the
raise, and a mistake of the calling code gets no "catch it where the program must go on".
The snippets claimed to reach the raise are run here.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from errdex.analyze.code_fields import unbound_names
from errdex.scan import scan_checkout
from errdex.source import open_source

from .stdlib_items import one_file_items

PACKAGE = """\
import re
import sys


class ParseError(Exception):
    pass


class ReadError(Exception):
    pass


def _inner(data):
    if not data:
        raise ParseError("no data in the input")


def read(data):
    try:
        _inner(data)
    except ParseError as exc:
        raise ReadError(str(exc)) from None


class Parser:
    def error(self, message):
        self.exit(2, message)

    def exit(self, status, message):
        sys.exit(status)

    def parse(self, args):
        try:
            self._parse(args)
        except ParseError as err:
            self.error(str(err))

    def _parse(self, args):
        def take(arg):
            self._check(arg)

        for arg in args:
            take(arg)

    def _check(self, arg):
        if arg == "bad":
            raise ParseError("bad argument given")


class Loop:
    def send(self, sock):
        return self._send_native(sock)

    def _send_native(self, sock):
        return len(sock)


class UnixLoop(Loop):
    def _send_native(self, sock):
        if not sock:
            raise OSError("nothing to send on the socket")
        return 0


def _chunks(data):
    for x in data:
        if x < 0:
            raise OSError("negative chunk in the stream")
        yield x


def stream(data):
    return _chunks(data)


def _run(args):
    return len(args)


def check(*args):
    code = _run(args)
    if code:
        raise OSError("the command failed to run")


class Box:
    def close(self):
        if self._closed:
            raise RuntimeError("the box is closed already")
        self._closed = True


def _native(data):
    if data is None:
        raise OSError("native send is not available")
    return len(data)


class Sender:
    def send(self, data, fallback=True):
        try:
            return _native(data)
        except OSError:
            if not fallback:
                raise
        return 0


class Gen:
    def seed(self, a=None):
        if a is not None and a < 0:
            raise ValueError("seed must not be negative")

    def reseed(self, a=None):
        if not isinstance(a, (type(None), int)):
            raise TypeError("reseed wants None or an int")


def set_path(path):
    if path:
        raise OSError("don't know how to set the search path on this platform")


def append(cmd, kind):
    if kind == "f" and not re.search("IN", cmd):
        raise OSError("the command lacks its input marker")


def connect(ssl=None, server_hostname=None):
    if ssl and server_hostname is None:
        raise OSError("you have to pass server_hostname when using ssl")


def _exclude(a, b):
    if a == b:
        raise AssertionError("Error performing exclusion")


class Special:
    def __getattr__(self, item):
        raise AttributeError(item)


def refresh():
    if sys.platform:
        raise OSError("the cache could not be refreshed")
"""

Item = tuple[dict[str, Any], dict[str, Any]]


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("callers")
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text(PACKAGE)
    return root


@pytest.fixture(scope="module")
def by_message(package: Path) -> dict[str, Item]:
    result = scan_checkout(open_source(str(package), repo="o/callers"), repo="o/callers")
    return {r["errorMessage"]: (r, e) for r, e in result.items}


def _scaffold(record: dict[str, Any], evidence: dict[str, Any]) -> str:
    """The handler errdex verify runs a reproducer in: not shown, since the call reads
    names it does not bind (run alone it raises ``NameError``)."""
    assert record["tryCatchPattern"] is None
    return str(evidence["provenance"]["tryCatchPattern"]["scaffold"])


def _runs(package: Path, setup: str, snippet: str) -> subprocess.CompletedProcess[str]:
    """The snippet, after ``setup``, in a fresh interpreter in the package's folder."""
    code = textwrap.dedent(setup) + "\n" + snippet.replace("...  #", "print('handled')  #")
    return subprocess.run(
        [sys.executable, "-c", code], cwd=package, capture_output=True, text=True, timeout=60
    )


def test_a_converted_class_is_the_one_to_catch(by_message: dict[str, Item], package: Path) -> None:
    record, evidence = by_message["no data in the input"]
    (entry,) = [e for e in evidence["entryPoints"] if e["qualname"] == "pkg.read"]
    assert entry["surfacesAs"] == "ReadError"
    (solution,) = record["solutions"]
    assert solution.endswith("From `read()` it surfaces as `ReadError`."), solution
    assert "catch `ParseError`" not in solution
    pattern = _scaffold(record, evidence)
    assert "except ReadError as exc:" in pattern and "    read(data)" in pattern
    assert "except ParseError" not in pattern
    done = _runs(package, "data = b''", pattern)
    assert done.returncode == 0 and "handled" in done.stdout, done.stderr


def test_a_handler_that_exits_surfaces_as_system_exit(
    by_message: dict[str, Item], package: Path
) -> None:
    """``except ParseError: self.error(...)``, and ``error`` ends in ``sys.exit``; the raise
    is reached from ``parse`` through a function nested in ``_parse`` that uses ``self``."""
    record, evidence = by_message["bad argument given"]
    parse = [e for e in evidence["entryPoints"] if e["qualname"] == "pkg.Parser.parse"]
    assert parse and parse[0]["surfacesAs"] == "SystemExit", evidence["entryPoints"]
    assert "see `SystemExit`, not `ParseError`" in record["solutions"][0]
    pattern = _scaffold(record, evidence)
    assert "except SystemExit as exc:" in pattern, pattern
    done = _runs(package, "from pkg import Parser\nobj = Parser()\nargs = ['bad']", pattern)
    assert done.returncode == 0 and "handled" in done.stdout, done.stderr


def test_an_override_in_a_subclass_is_reached_through_self(by_message: dict[str, Item]) -> None:
    _, evidence = by_message["nothing to send on the socket"]
    assert [e["qualname"] for e in evidence["entryPoints"]] == ["pkg.Loop.send"]


def test_no_snippet_around_a_generator_it_only_makes(by_message: dict[str, Item]) -> None:
    record, evidence = by_message["negative chunk in the stream"]
    assert any(e["qualname"] == "pkg.stream" for e in evidence["entryPoints"])
    assert "stream(" not in (record["tryCatchPattern"] or "")


def test_no_snippet_calling_a_star_args_function_with_nothing(
    by_message: dict[str, Item],
) -> None:
    record, _ = by_message["the command failed to run"]
    assert record["tryCatchPattern"] is None


def test_no_placeholder_body_without_a_public_call(by_message: dict[str, Item]) -> None:
    for record, _ in by_message.values():
        assert "the code that reaches" not in (record["tryCatchPattern"] or "")


def test_a_usage_error_gets_no_catch_advice(by_message: dict[str, Item]) -> None:
    # ``if self._closed: raise RuntimeError(...)``: the check reads only the object's state,
    # which the solution says instead of "no fix" (still no advice to catch it)
    record, _ = by_message["the box is closed already"]
    assert record["solutions"] == [
        "The check reads only the object's own state, none of the call's arguments: call "
        "`Box.close()` only on an object that is not in the state the message describes "
        "(“the box is closed already”), rather than catching `RuntimeError`."
    ]


def test_the_parameter_the_guard_reads_is_passed(by_message: dict[str, Item]) -> None:
    record, evidence = by_message["seed must not be negative"]
    assert "    obj.seed(a=a)  # obj: a Gen" in _scaffold(record, evidence)


@pytest.mark.parametrize("message", ["reseed wants None or an int", "the box is closed already"])
def test_no_handler_for_a_wrong_call(by_message: dict[str, Item], message: str) -> None:
    """A ``TypeError`` from a wrong call, a method called on an object in the wrong state:
    fixed before the call, not caught after it."""
    record, evidence = by_message[message]
    assert record["tryCatchPattern"] is None
    assert "tryCatchPattern" not in evidence["provenance"]
    assert record["handlingStrategy"] in ("type-guard", "validation")


def test_no_shown_snippet_reads_a_name_it_does_not_bind(by_message: dict[str, Item]) -> None:
    for record, _ in by_message.values():
        pattern = record["tryCatchPattern"]
        if pattern:
            assert not unbound_names(pattern), pattern


def test_a_conditional_re_raise_is_passed_its_value(
    by_message: dict[str, Item], package: Path
) -> None:
    """``except OSError: if not fallback: raise``: only ``fallback=False`` lets it out."""
    record, evidence = by_message["native send is not available"]
    (entry,) = [e for e in evidence["entryPoints"] if e["qualname"] == "pkg.Sender.send"]
    assert (entry["reraisedIn"], entry["reraisedWhen"]) == ("pkg.Sender.send", "not fallback")
    assert any(s.startswith("Pass `fallback=True` to `Sender.send()`") for s in record["solutions"])
    pattern = _scaffold(record, evidence)
    assert "    obj.send(data, fallback=False)  # obj: a Sender" in pattern, pattern
    setup = "from pkg import Sender\nobj = Sender()\ndata = None"
    done = _runs(package, setup, pattern)
    assert done.returncode == 0 and "handled" in done.stdout, done.stderr


def test_a_call_with_nothing_to_bind_is_shown_and_runs_alone(
    by_message: dict[str, Item], package: Path
) -> None:
    record, _ = by_message["the cache could not be refreshed"]
    pattern = record["tryCatchPattern"]
    assert pattern is not None and "    refresh()" in pattern, pattern
    done = _runs(package, "", pattern)
    assert done.returncode == 0 and "handled" in done.stdout, done.stderr


def test_a_verb_inside_a_statement_is_no_advice(by_message: dict[str, Item]) -> None:
    """ "don't know how to set …" states a limit; it tells the caller to do nothing."""
    record, _ = by_message["don't know how to set the search path on this platform"]
    assert not any("own advice" in s for s in record["solutions"]), record["solutions"]


def test_a_public_method_of_a_private_class_gets_its_parameter_fix(tmp_path: Path) -> None:
    """``_ConnectionBase.send_bytes(buf, offset=0)``: callers write
    ``conn.send_bytes(b, -1)``; the extractor's "no fix" gives way to the requirement
    over the method's own parameter, named through the public ``Connection`` that
    inherits it (:mod:`errdex.analyze.heirs`, session 41)."""
    ((record, evidence),) = one_file_items(
        tmp_path,
        "conn.py",
        "class _Base:\n"
        "    def send_bytes(self, buf, offset=0):\n"
        "        if offset < 0:\n"
        "            raise ValueError('offset is negative')\n"
        "        return buf[offset:]\n"
        "\n"
        "\n"
        "class Connection(_Base):\n"
        "    pass\n",
    )
    assert record["solutions"][0].startswith(
        "Pass `offset` to `Connection.send_bytes()` as a non-negative value"
    ), record["solutions"]
    assert evidence["provenance"]["solutions"]["analyst"] == "static"


def test_a_module_the_condition_calls_is_no_local(by_message: dict[str, Item]) -> None:
    """``not re.search("IN", cmd)`` reads the imported ``re`` and a parameter: the whole
    condition is in the caller's terms, not only ``kind == "f"``."""
    record, _ = by_message["the command lacks its input marker"]
    first = record["solutions"][0]
    assert first.startswith("Pass `cmd` and `kind` to `append()`"), first
    assert "re.search('IN', cmd)" in first and "only when" not in first, first


def test_the_message_saying_what_you_have_to_pass_is_advice(by_message: dict[str, Item]) -> None:
    record, _ = by_message["you have to pass server_hostname when using ssl"]
    assert record["solutions"][0] == (
        "Follow the message's own advice: “you have to pass server_hostname when using ssl”."
    )


def test_no_strategy_for_a_failed_check_or_the_attribute_protocol(
    by_message: dict[str, Item],
) -> None:
    """Nothing to validate before an internal invariant fails, and ``__getattr__``'s
    ``AttributeError`` is how ``hasattr`` learns there is no attribute."""
    for message in ("Error performing exclusion", "{item}"):
        record, _ = by_message[message]
        assert record["handlingStrategy"] is None, (message, record["handlingStrategy"])


def test_a_raise_of_an_object_names_no_empty_class(tmp_path: Path) -> None:
    """``raise exc`` of an exception read at run time (asyncio's ``StreamWriter.drain``)
    has no class: no solution may say "see ``" or "the handler at line None"."""
    ((record, _evidence),) = one_file_items(
        tmp_path,
        "streams.py",
        "class Writer:\n"
        "    def __init__(self, reader):\n"
        "        self._reader = reader\n"
        "\n"
        "    async def drain(self):\n"
        "        exc = self._reader.exception()\n"
        "        if exc is not None:\n"
        "            raise exc\n"
        "\n"
        "    async def start_tls(self):\n"
        "        await self.drain()\n",
    )
    assert record["solutions"], record
    for text in record["solutions"]:
        assert "``" not in text and "line None" not in text, text


def test_a_private_class_is_caught_by_its_public_base(tmp_path: Path) -> None:
    """``catch `_Deadlock``` asks callers to import a private class; its nearest public
    ancestor (from ``classInfo``) is what an ``except`` can name."""
    items = one_file_items(
        tmp_path,
        "locks.py",
        "class _Deadlock(RuntimeError):\n"
        "    pass\n"
        "\n"
        "\n"
        "def acquire(owner):\n"
        "    raise _Deadlock('deadlock detected by %r' % owner)\n",
    )
    record = next(r for r, _ in items if r["errorClass"] == "_Deadlock")
    text = " ".join(record["solutions"])
    assert "Catch `RuntimeError` (its public base)" in text
    assert "atch `_Deadlock`" not in text
