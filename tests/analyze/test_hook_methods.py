"""A hook the library calls (by a built name, once installed, or held) is no way in."""

from __future__ import annotations

from pathlib import Path

from .stdlib_items import one_file_items

_HOOKS = (
    "import sys\n"
    "\n\n"
    "class Quit(Exception):\n"
    "    pass\n"
    "\n\n"
    "class Tracer:\n"
    "    def run(self, func):\n"
    "        sys.settrace(self.trace_dispatch)\n"
    "        try:\n"
    "            func()\n"
    "        except Quit:\n"
    "            pass\n"
    "\n"
    "    def trace_dispatch(self, frame, event, arg):\n"
    "        return self.dispatch_line(frame)\n"
    "\n"
    "    def dispatch_line(self, frame):\n"
    "        raise Quit('quit while tracing')\n"
    "\n\n"
    "class Visitor:\n"
    "    def visit(self, node):\n"
    "        return getattr(self, f'visit_{type(node).__name__}')(node)\n"
    "\n\n"
    "class Names(Visitor):\n"
    "    def visit_Name(self, node):\n"
    "        raise LookupError('undeclared name')\n"
    "\n\n"
    "class Failure:\n"
    "    def __init__(self, message):\n"
    "        self.message = message\n"
    "\n"
    "    def __call__(self, lineno):\n"
    "        raise SyntaxError('lexer failure')\n"
    "\n\n"
    "class Lexer:\n"
    "    def __init__(self):\n"
    "        self.rules = [Failure('missing end')]\n"
    "\n\n"
    "class Cmd:\n"
    "    def onecmd(self, line):\n"
    "        mname = 'do_' + line\n"
    "        return getattr(self, mname)()\n"
    "\n\n"
    "class Shell(Cmd):\n"
    "    def do_break(self):\n"
    "        return self.set_break()\n"
    "\n"
    "    def set_break(self):\n"
    "        raise ValueError('no such line')\n"
)


def _entries(items: list, message: str) -> list[str]:
    (evidence,) = [e for r, e in items if message in r["errorMessage"]]
    return [e["qualname"] for e in evidence["entryPoints"]]


def _solution(items: list, message: str) -> str:
    (record,) = [r for r, _ in items if message in r["errorMessage"]]
    return " ".join(record["solutions"])


def test_an_installed_trace_function_and_what_only_it_calls_are_no_entry_points(
    tmp_path: Path,
) -> None:
    """``sys.settrace(self.trace_dispatch)``: the interpreter calls it; ``dispatch_line``
    is called from it alone (stop 39, ``bdb.Bdb.trace_dispatch``)."""
    items = one_file_items(tmp_path, "m.py", _HOOKS)
    assert _entries(items, "quit while tracing") == []
    assert "trace_dispatch" not in _solution(items, "quit while tracing")
    assert "dispatch_line" not in _solution(items, "quit while tracing")


def test_a_method_looked_up_by_a_built_name_is_no_entry_point(tmp_path: Path) -> None:
    """``getattr(self, f'visit_{…}')`` in a base runs ``Names.visit_Name`` (stop 39,
    jinja2 ``UndeclaredNameVisitor.visit_Name``)."""
    items = one_file_items(tmp_path, "m.py", _HOOKS)
    assert _entries(items, "undeclared name") == []
    assert "visit_Name" not in _solution(items, "undeclared name")


def test_the_call_of_an_object_only_the_library_builds_is_no_entry_point(
    tmp_path: Path,
) -> None:
    """``Failure`` is built by ``Lexer`` and kept; nothing hands it out (stop 39, jinja2
    ``lexer.Failure.__call__``)."""
    items = one_file_items(tmp_path, "m.py", _HOOKS)
    assert _entries(items, "lexer failure") == []
    assert "__call__" not in _solution(items, "lexer failure")


def test_a_command_bound_by_name_is_no_entry_point_but_what_it_calls_stays(
    tmp_path: Path,
) -> None:
    """``mname = 'do_' + line; getattr(self, mname)`` (``cmd.Cmd``) runs ``do_break``;
    ``set_break``, which only it calls, is an API of its own (``Bdb.set_break``)."""
    items = one_file_items(tmp_path, "m.py", _HOOKS)
    assert _entries(items, "no such line") == ["m.Shell.set_break"]
