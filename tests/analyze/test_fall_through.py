"""The early exits a raise is past (blind review 2026-12-06: "no enclosing condition" for
``tempfile.mktemp``, ``multiprocessing.heap.Arena`` and ``mailbox.Maildir._create_tmp``)."""

from __future__ import annotations

import ast
from pathlib import Path

from pytest import MonkeyPatch

from errdex.analyze.fall_through import reach
from errdex.scan import scan_checkout
from errdex.source import open_source

MKTEMP = '''\
def mktemp(suffix="", prefix="tmp", dir=None):
    """User-callable function to return a unique temporary file name."""
    names = _get_candidate_names()
    for seq in range(TMP_MAX):
        name = next(names)
        file = _os.path.join(dir, prefix + name + suffix)
        if not _exists(file):
            return file

    raise FileExistsError(_errno.EEXIST, "No usable temporary filename found")
'''

ARENA = """\
    def __init__(self, size):
        self.size = size
        for i in range(100):
            name = 'pym-%d-%s' % (os.getpid(), next(self._rand))
            buf = mmap.mmap(-1, size, tagname=name)
            if _winapi.GetLastError() == 0:
                break
            buf.close()
        else:
            raise FileExistsError('Cannot find name for new mmap')
        self.name = name
"""

CREATE_TMP = '''\
    def _create_tmp(self):
        """Create a file in the tmp subdirectory and open and return it."""
        path = os.path.join(self._path, 'tmp', uniq)
        try:
            os.stat(path)
        except FileNotFoundError:
            Maildir._count += 1
            try:
                return _create_carefully(path)
            except FileExistsError:
                pass

        # Fall through to here if stat succeeded or open raised EEXIST.
        raise ExternalClashError('Name clash prevented file creation: %s' % path)
'''

EARLY = """\
    def check(self, value):
        if value is None:
            return
        raise ValueError(value)
"""


def _at(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines()) if needle in line)


def test_a_loop_that_returns_before_the_raise() -> None:
    lines = MKTEMP.splitlines()
    found = reach(lines, _at(MKTEMP, "raise"), 0, 385)
    assert found.phrase == "when the loop over `range(TMP_MAX)` ends without returning"


def test_the_else_of_a_for_loop() -> None:
    lines = ARENA.splitlines()
    found = reach(lines, _at(ARENA, "raise"), 0, 40, modules=("_winapi",))
    assert found.phrase == "when the loop over `range(100)` ends without `break`"


def test_a_try_that_returns_in_its_handler() -> None:
    lines = CREATE_TMP.splitlines()
    found = reach(lines, _at(CREATE_TMP, "raise ExternalClashError"), 0, 496)
    assert found.phrase == (
        "when `os.stat(path)` does not raise `FileNotFoundError`, or when `os.stat(path)` "
        "raises `FileNotFoundError` and the `try` block at line 503 raises `FileExistsError`"
    )


def test_an_if_that_returns_and_the_function_start_out_of_the_window() -> None:
    lines = EARLY.splitlines()
    assert reach(lines, 3, 0, 1).phrase == "when `value is not None`"
    # the def is not in the window: what is seen still holds
    assert reach(lines[1:], 2, None, 2).phrase == "when `value is not None`"
    # nothing before the raise: no condition, and it is the first statement
    plain = ["def f(x):", '    """Doc."""', "    raise ValueError(x)"]
    found = reach(plain, 2, 0, 1)
    assert found.phrase is None and found.first


def test_the_record_says_it(tmp_path: Path) -> None:
    (tmp_path / "tmpnames.py").write_text(
        "import os\nfrom os.path import exists as _exists\nTMP_MAX = 10000\n\n\n"
        + MKTEMP.replace("_os.", "os.").replace("_errno.EEXIST, ", "")
    )
    result = scan_checkout(open_source(str(tmp_path), repo="o/t"), repo="o/t")
    (record,) = [r for r, _ in result.items if r["errorClass"] == "FileExistsError"]
    assert record["triggerScenarios"].startswith(
        "Triggered when the loop over `range(TMP_MAX)` ends without returning."
    )
    assert "no enclosing condition" not in record["triggerScenarios"]


DECOMPRESS = '''\
def decompress(data):
    """Decompress a block of data."""
    if not data:
        raise ValueError("empty")
    results = []
    while data:
        decomp = BZ2Decompressor()
        try:
            res = decomp.decompress(data)
        except OSError:
            if results:
                break
            else:
                raise
        results.append(res)
        if not decomp.eof:
            raise ValueError("Compressed data ended before the end-of-stream marker")
'''


def test_a_way_out_by_raise_is_neither_a_path_nor_a_condition() -> None:
    """``bz2.decompress``: the handler breaks or raises again, so no path through it
    reaches the raise; the check before it that raises is another error, not said."""
    lines = DECOMPRESS.splitlines()
    found = reach(lines, _at(DECOMPRESS, "Compressed data"), 0, 320)
    assert found.phrase == "when `decomp.decompress(data)` does not raise `OSError`"


def test_a_test_of_a_local_is_said_with_what_it_holds() -> None:
    """ "the `return` at line N is not taken" hid the test (``datetime.__add__``'s
    ``0 < delta.days <= _MAXORDINAL``, stop-39 paired review: misleading): the test is
    said as written, with the local's one assignment; the line only where a name the
    test reads is bound again before the raise, so that the test says nothing of it."""
    lines = [
        "def f(x):",
        "    found = g(x)",
        "    if found:",
        "        return found",
        "    raise KeyError(x)",
    ]
    assert reach(lines, 4, 0, 10).phrase == "when `not found`"
    assert reach(lines, 4, 0, 10, hidden=("found",)).phrase == (
        "when `not found` (with `found = g(x)`)"
    )
    private = ["def f(x):", "    if 0 < x <= _MAX:", "        return x", "    raise E(x)"]
    assert reach(private, 3, 0, 1).phrase == "when `not (0 < x <= _MAX)`"
    rebound = [*lines[:4], "    found = h(x)", "    raise KeyError(found)"]
    assert reach(rebound, 5, 0, 10, hidden=("found",)).phrase == (
        "when the `return` at line 13 is not taken"
    )


def test_only_an_exit_is_named_as_one_and_a_nested_def_returns_nothing() -> None:
    """A branch left by a nested ``if`` whose arms return is no ``break``; a ``return`` in
    a function defined in the loop body does not leave the loop (re-read, stop 34)."""
    nested = [
        "def f(a):",
        "    flag = g()",
        "    if flag:",
        "        if a:",
        "            return 1",
        "        else:",
        "            return 2",
        "    raise Boom",
    ]
    phrase = reach(nested, 7, 0, 1, (), ("flag",)).phrase
    assert phrase is None or "`break`" not in phrase
    inner_def = [
        "def f(items):",
        "    for x in items:",
        "        def key(y):",
        "            return y",
        "        use(key)",
        "    raise Boom",
    ]
    phrase = reach(inner_def, 5, 0, 1).phrase
    assert phrase is None or "without returning" not in phrase


def test_beside_a_condition_the_early_exits_are_not_restated(tmp_path: Path) -> None:
    """``if len(x) > 3: raise`` after ``if not x: return``: the trigger is the condition;
    "Line N is reached only when the `return` at line M is not taken" read as the
    function's own control flow (paired blind reviews, stop 34)."""
    (tmp_path / "sizes.py").write_text(
        "def check(x):\n"
        "    if not x:\n"
        "        return None\n"
        "    if len(x) > 3:\n"
        '        raise ValueError("too long")\n'
        "    return x\n"
    )
    result = scan_checkout(open_source(str(tmp_path), repo="o/t"), repo="o/t")
    (record,) = [r for r, _ in result.items]
    assert record["triggerScenarios"].startswith(
        "Triggered when the arguments passed to `check()` make `len(x) > 3` true"
    ), record["triggerScenarios"]
    assert "is reached only" not in record["triggerScenarios"]


POPITEM = '''\
    def popitem(self):
        """Delete an arbitrary (key, message) pair and return it."""
        for key in self.iterkeys():
            return (key, self.pop(key))     # This is only run once.
        else:
            raise KeyError('No messages in mailbox')
'''


def test_the_else_of_a_loop_that_returns() -> None:
    """``mailbox.Mailbox.popitem`` raises only when the loop found no key: the record
    said "no enclosing condition"."""
    lines = POPITEM.splitlines()
    found = reach(lines, _at(POPITEM, "raise"), 0, 158)
    assert found.phrase == "when the loop over `self.iterkeys()` ends without returning"


ENCODE = (
    """\
def encode_content(content):
    if isinstance(content, (bytes, str)):
        body = content
"""
    + "".join(f"        x{i} = {i}\n" for i in range(20))
    + """\
        return body
    elif isinstance(content, list) and not isinstance(content, dict):
"""
    + "".join(f"        y{i} = {i}\n" for i in range(20))
    + """\
        return content
    elif isinstance(content, tuple):
        return content

    raise TypeError(f"Unexpected type for 'content', {type(content)!r}")
"""
)


def test_the_branches_that_return_above_the_window(tmp_path: Path) -> None:
    """httpx's ``encode_content``: its ``def`` and first branch lie above the record's
    source window, which alone read "no enclosing condition" (stop-39 paired review:
    misleading); the whole function is read."""
    (tmp_path / "content.py").write_text(ENCODE)
    result = scan_checkout(open_source(str(tmp_path), repo="o/t"), repo="o/t")
    ((record, evidence),) = result.items
    assert record["triggerScenarios"].startswith(
        "Triggered when `content` is none of: `bytes`/`str`, `list` (other than `dict`), `tuple`."
    ), record["triggerScenarios"]
    # the lines above the window it names are the record's evidence (nothing invented)
    read = evidence["provenance"]["triggerScenarios"]["linesRead"]
    assert any("isinstance(content, (bytes, str))" in line for line in read), read
    assert all(int(line.split(":")[0]) < record["sourceCodeStart"] for line in read), read


def test_a_local_s_assignment_is_said_once() -> None:
    """``Context._raise_error`` tests ``error`` twice; its assignment is said once."""
    lines = [
        "def f(self, c):",
        "    error = lookup(c)",
        "    if error in self.ignored:",
        "        return 1",
        "    if not self.traps[error]:",
        "        return 2",
        "    raise error('x')",
    ]
    assert reach(lines, 6, 0, 1, hidden=("error",)).phrase == (
        "when `error not in self.ignored` (with `error = lookup(c)`) and `self.traps[error]`"
    )


def test_a_method_with_a_column_0_string_is_parsed_once(monkeypatch: MonkeyPatch) -> None:
    """A string's line at column 0 left :func:`textwrap.dedent` nothing to take: every
    end was parsed in vain (3.7 s a site in a 2,000-line method, rr5) and nothing said."""
    lines = ["    def f(self, x):", '        s = """', "col0 text", '"""']
    lines += [
        "        if x == 0:",
        "            return 0",
        "        if x == 1:",
        "            return 1",
    ]
    lines += ["        if x:", "            raise ValueError(x)"]
    for i in range(2, 300):
        lines += [f"        if x == {i}:", f"            return {i}"]
    parsed: list[str] = []
    real = ast.parse

    def counted(text: str, *args: object, **kwargs: object) -> ast.AST:
        parsed.append(text)
        return real(text, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ast, "parse", counted)
    found = reach(lines, 9, 0, 100, hidden={"s"})
    assert found.phrase == "when `x != 0` and `x != 1`", found
    assert len([t for t in parsed if t.startswith("def f")]) == 1


def test_a_local_bound_above_the_window_is_not_named(tmp_path: Path) -> None:
    """The whole function is read, but a condition naming ``n``, bound 30 lines above the
    window, said what neither the record's code nor its evidence shows (rr5, f14.py):
    the window's sentence is said."""
    filler = "".join(f"    y{i} = {i}\n" for i in range(40))
    text = f"def f(x):\n    n = g(x)\n{filler}    if n > 3:\n        return n\n    raise ValueError(x)\n"
    (tmp_path / "m.py").write_text(text)
    result = scan_checkout(open_source(str(tmp_path), repo="o/t"), repo="o/t")
    (record,) = [r for r, _ in result.items]
    said = record["triggerScenarios"]
    assert "when the `return` at line 44 is not taken" in said, said
    assert "n <= 3" not in said
    # bound inside the window, it is named
    near = text.replace("    n = g(x)\n", "").replace(
        "    if n > 3:", "    n = g(x)\n    if n > 3:"
    )
    (tmp_path / "m.py").write_text(near)
    result = scan_checkout(open_source(str(tmp_path), repo="o/t"), repo="o/t")
    (record,) = [r for r, _ in result.items]
    assert "when `n <= 3` (with `n = g(x)`)" in record["triggerScenarios"]
