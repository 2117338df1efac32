"""Abstract methods and control-flow signals are described as what they are (issue 10, item 5)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import Any

import pytest

from errdex.scan import scan_checkout
from errdex.source import open_source

from .installed import installed_items

PACKAGE = '''\
class Base:
    def area(self):
        """Return the area."""
        raise NotImplementedError


class Square(Base):
    def area(self):
        return 4


class Guarded:
    def area(self, ready):
        if not ready:
            raise NotImplementedError("not yet")
        return 1


class Counter:
    def __init__(self):
        self.n = 0

    def __iter__(self):
        return self

    def __next__(self):
        if self.n >= 3:
            raise StopIteration
        self.n += 1
        return self.n


def first(items):
    if not items:
        raise StopIteration
    return items[0]


def main(argv):
    if not argv:
        raise SystemExit(2)
    return 0


class Stream:
    def next(self):
        raise StopIteration


def _helper(items):
    if not items:
        raise StopIteration
    return items[0]


class _Found(Exception):
    pass


def _search(tree):
    for node in tree:
        if node:
            raise _Found
    return None


def contains(tree):
    try:
        _search(tree)
    except _Found:
        return True
    return False


class Sock:
    def dup(self):
        raise NotImplementedError("Can't dup() %s instances" % type(self).__name__)


class Reader:
    def read(self):
        raise NotImplementedError("subclasses must implement read()")


def first_or_none(items):
    try:
        return _helper(items)
    except StopIteration:
        return None
'''

Item = tuple[dict[str, Any], dict[str, Any]]


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("roles")
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text(PACKAGE)
    return root


@pytest.fixture(scope="module")
def by_line(package: Path) -> dict[int, Item]:
    result = scan_checkout(open_source(str(package), repo="o/roles"), repo="o/roles")
    return {r["lineNumber"]: (r, e) for r, e in result.items}


def test_an_abstract_method_asks_for_an_implementation(by_line: dict[int, Item]) -> None:
    record, _ = by_line[4]
    assert record["solutions"] == [
        "Implement `area` in your subclass of `Base` (the repository's own implementations: "
        "`pkg.Square.area`), or use a subclass that implements it."
    ]
    assert "meant to be overridden by subclasses of `Base`" in record["documentation"]
    assert record["tryCatchPattern"] is None and record["handlingStrategy"] is None


def test_a_conditional_not_implemented_is_an_ordinary_error(by_line: dict[int, Item]) -> None:
    record, _ = by_line[15]
    assert "overridden" not in record["documentation"]
    # an ordinary requirement, said through the parameter the caller passes
    assert record["solutions"][-1].startswith("Pass `ready` to `Guarded.area()` as a true value")


def test_end_of_iteration_is_not_a_failure(by_line: dict[int, Item], package: Path) -> None:
    record, _ = by_line[28]
    assert record["solutions"][0].startswith("Nothing to fix: a `for` loop over the iterator")
    assert record["preventionTips"] == [] and record["validationCode"] is None
    # what the solution says, run: the loop ends, and next() with a default returns it
    script = (
        "from pkg import Counter\n"
        "assert list(Counter()) == [1, 2, 3]\n"
        "it = Counter(); [next(it) for _ in range(3)]\n"
        "assert next(it, None) is None\n"
    )
    subprocess.run([sys.executable, "-c", script], cwd=package, check=True)


def test_stop_iteration_outside_next_keeps_its_ordinary_account(by_line: dict[int, Item]) -> None:
    record, _ = by_line[35]
    assert "Nothing to fix" not in " ".join(record["solutions"])


def test_an_old_style_next_ends_the_iteration(by_line: dict[int, Item]) -> None:
    record, _ = by_line[47]
    assert record["errorClass"] == "StopIteration"
    assert record["solutions"][0].startswith("Nothing to fix: a `for` loop over the iterator")


def test_stop_iteration_in_a_helper_nothing_public_reaches_is_a_signal(
    by_line: dict[int, Item],
) -> None:
    # ``_helper``'s only caller, ``first_or_none``, catches it
    record, _ = by_line[52]
    assert record["solutions"] == [
        "Nothing to fix: `StopIteration` is how this helper says it has nothing (more) to "
        "produce; do not treat it as a failure."
    ]
    assert "a control-flow signal, not a failure" in record["documentation"]
    assert record["tryCatchPattern"] is None


def test_a_private_class_its_caller_catches_is_an_internal_signal(
    by_line: dict[int, Item], package: Path
) -> None:
    record, _ = by_line[63]
    assert record["errorClass"] == "_Found"
    assert record["solutions"] == [
        "Nothing to fix: `_Found` is caught inside the library (`pkg.contains` (line 70)); "
        "do not treat it as a failure."
    ]
    assert "caught by `pkg.contains` (line 70)" in record["documentation"]
    # what it says, run: the public function returns, nothing escapes
    script = "from pkg import contains\nassert contains([0, 1]) is True\n"
    subprocess.run([sys.executable, "-c", script], cwd=package, check=True)


def test_an_unsupported_operation_is_no_abstract_method(by_line: dict[int, Item]) -> None:
    record, _ = by_line[77]
    assert "overridden" not in record["documentation"]
    assert not record["solutions"][0].startswith("Implement")


def test_a_message_asking_for_an_override_makes_it_abstract(by_line: dict[int, Item]) -> None:
    record, _ = by_line[82]
    assert record["solutions"][0].startswith("Implement `read` in your subclass of `Reader`")


def test_system_exit_says_the_program_ends(by_line: dict[int, Item], package: Path) -> None:
    record, _ = by_line[41]
    assert "`SystemExit` here ends the program" in record["documentation"]
    # a control-flow exit gets no "catch it" advice (issue 10): how a test expects it
    assert "a test expects it with `pytest.raises(SystemExit)`" in record["solutions"][0]
    assert "catch" not in record["solutions"][0].lower()
    done = subprocess.run(
        [sys.executable, "-c", "from pkg import main; main([])"], cwd=package, check=False
    )
    assert done.returncode == 2


def _handler(record: dict[str, Any], evidence: dict[str, Any]) -> str:
    """The handler shown, else the scaffold verify runs a reproducer in (its call reads
    names it does not bind, so it is not shown)."""
    if record["tryCatchPattern"] is not None:
        return str(record["tryCatchPattern"])
    return str(evidence["provenance"]["tryCatchPattern"]["scaffold"])


def test_a_raise_without_message_is_not_called_built_at_run_time(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text("def f(x):\n    if x:\n        raise KeyError\n")
    result = scan_checkout(open_source(str(tmp_path), repo="o/m"), repo="o/m")
    ((record, evidence),) = result.items
    pattern = _handler(record, evidence)
    assert "built at run time" not in pattern
    assert "raised without a message" in pattern


@pytest.fixture(scope="module")
def click_items() -> list[Item]:
    return installed_items("click", "pallets/click")


def test_clicks_exit_and_abort_are_signals_not_failures(click_items: list[Item]) -> None:
    """``Context.abort`` raises ``Abort`` ("An internal signalling exception that signals
    Click to abort") and ``Context.exit`` raises ``Exit``: what they signal, not a failure."""
    by_class: dict[str, list[dict[str, Any]]] = {}
    for record, _ in click_items:
        by_class.setdefault(record["errorClass"], []).append(record)
    for name in ("Abort", "Exit"):
        assert by_class[name]
        for record in by_class[name]:
            (solution,) = record["solutions"]
            assert solution.startswith(
                f"`{name}` is how `click` signals what its docstring says (“"
            ), solution
            assert "do not treat it as a failure" in solution
            assert f"`{name}` is a control-flow signal, not a failure" in record["documentation"]
            assert record["tryCatchPattern"] is None
    # an ordinary click error keeps its ordinary account
    for record in by_class["BadParameter"]:
        assert "signal" not in " ".join(record["solutions"])


def test_a_signal_without_other_evidence_is_still_said_as_one(tmp_path: Path) -> None:
    """``_sitebuiltins.Quitter.__call__`` (``quit()``) raises ``SystemExit(code)``; with no
    docstring, caller or test, the extractor's "catch it" account must not stay."""
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    shutil.copy(stdlib / "_sitebuiltins.py", tmp_path / "_sitebuiltins.py")
    result = scan_checkout(open_source(str(tmp_path), repo="o/sb"), repo="o/sb")
    (record,) = [r for r, _ in result.items if r["errorClass"] == "SystemExit"]
    assert record["solutions"][0].startswith("Nothing to fix if the program is meant to end here")
    assert "`SystemExit` here ends the program" in record["documentation"]


SIGNALS = """\
class _Stop(Exception):
    def __init__(self, value):
        self.value = value


class _Busy(Exception):
    pass


class Loader:
    def load_stop(self):
        raise _Stop(self.stack.pop())

    def load(self):
        try:
            while True:
                self.dispatch[self.read(1)](self)
        except _Stop as stopped:
            return stopped.value

    def wait(self):
        raise _Busy("deadlock detected by %r" % self)

    def try_wait(self):
        try:
            self.wait()
        except _Busy:
            pass


class _Error(Exception):
    pass


def find(name, msg):
    if not name:
        raise _Error("No module named %s" % name)
    raise _Error(msg)


def main(name):
    try:
        find(name, "cannot find " + name)
    except _Error as exc:
        print(exc)
"""


def test_a_private_class_raised_and_caught_by_name_in_its_module_is_a_signal(
    tmp_path: Path,
) -> None:
    """``pickle._Stop``'s shape: raised without a message of its own only in its module,
    caught there by name (through a dispatch table no call graph follows). ``_Busy``
    carries a message, as ``importlib._bootstrap._DeadlockError`` does, which callers
    may see, and so does ``_Error`` at one of its sites: no signal."""
    from .stdlib_items import one_file_items

    items = one_file_items(tmp_path, "loader.py", SIGNALS)
    found = {r["errorClass"]: (r, e) for r, e in items}
    record, evidence = found["_Stop"]
    assert record["solutions"] == [
        "Nothing to fix: `_Stop` is how `loader` signals inside the module, which catches "
        "it by name; do not treat it as a failure."
    ]
    assert "raised only in that module" in record["documentation"]
    assert "`loader.Loader.load` (line 18)" in record["documentation"]
    assert evidence["role"]["kind"] == "signal"
    assert record["tryCatchPattern"] is None and record["handlingStrategy"] is None
    busy, busy_evidence = found["_Busy"]
    assert "role" not in busy_evidence
    assert not busy["solutions"][0].startswith("Nothing to fix")
    # raised bare at one site but with words at another (``runpy._Error``, printed by
    # ``runpy``): its messages are meant to be read, so no site of it is a signal
    errors = [e for r, e in items if r["errorClass"] == "_Error"]
    assert len(errors) >= 2 and all("role" not in e for e in errors)


def test_keyboard_interrupt_gets_no_catch_advice(tmp_path: Path) -> None:
    """asyncio's runner re-raises ``KeyboardInterrupt`` after its SIGINT handler ran: the
    program is being stopped, which is nothing to catch."""
    from .stdlib_items import one_file_items

    ((record, _),) = one_file_items(
        tmp_path,
        "runner.py",
        "class Runner:\n"
        "    def run(self, interrupted):\n"
        "        if interrupted:\n"
        "            raise KeyboardInterrupt()\n",
    )
    (solution,) = record["solutions"]
    assert solution.startswith("Nothing to fix: `KeyboardInterrupt` is how the program is told")
    assert "catch" not in solution.replace("without catching it", "").lower()


ABSTRACT = '''\
from abc import ABCMeta, abstractmethod


class Real(metaclass=ABCMeta):
    @abstractmethod
    def __round__(self, ndigits=None):
        """Rounds self to ndigits decimal places, defaulting to 0."""
        raise NotImplementedError
'''


def test_an_abstractmethod_is_reached_only_through_an_override(tmp_path: Path) -> None:
    """Blind review 2026-12-06 (``numbers.Real.__round__``): "raises unconditionally"
    left out that a subclass without an override cannot be instantiated."""
    (tmp_path / "nums.py").write_text(ABSTRACT)
    result = scan_checkout(open_source(str(tmp_path), repo="o/n"), repo="o/n")
    ((record, _),) = result.items
    assert record["triggerScenarios"].startswith(
        "Triggered only through an override that calls it (`super().__round__(...)`) or a "
        "direct call of `Real.__round__`: `__round__` is an `@abstractmethod`"
    )
    assert (
        "cannot be instantiated, so its `NotImplementedError` is reached only"
        in (record["documentation"])
    )
    assert "no enclosing condition" not in record["triggerScenarios"]
