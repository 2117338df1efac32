"""A hook the library calls (by a built name, once installed, or held) is no way in."""

from __future__ import annotations

from pathlib import Path

from errdex.analyze.entrypoints import PublicApi
from errdex.analyze.hook_methods import HookMethods

from .fixture_chains import chains_of
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
    "class _Failure:\n"
    "    def __init__(self, message):\n"
    "        self.message = message\n"
    "\n"
    "    def __call__(self, lineno):\n"
    "        raise SyntaxError('lexer failure')\n"
    "\n\n"
    "class Lexer:\n"
    "    def __init__(self):\n"
    "        self.rules = [_Failure('missing end')]\n"
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
    """``_Failure`` is built by ``Lexer`` and kept; nothing hands it out (stop 39, jinja2
    ``lexer.Failure.__call__``). Its name is private: a class importable under a public
    name keeps its ``__call__`` (rr3, ``HeaderRegistry``)."""
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


_DIRECT = (
    "class Parser:\n"
    "    def __init__(self, kind):\n"
    "        self.kind = kind\n"
    "\n"
    "    def parse_statement(self):\n"
    "        return getattr(self, f'parse_{self.kind}')()\n"
    "\n"
    "    def parse_for(self):\n"
    "        raise SyntaxError('bad for')\n"
    "\n"
    "    def parse_expression(self, with_condexpr=True):\n"
    "        if not with_condexpr:\n"
    "            raise SyntaxError('expected an expression')\n"
    "        return 1\n"
    "\n\n"
    "def extension_parse(parser):\n"
    "    return parser.parse_expression()\n"
    "\n\n"
    "class Dispatch:\n"
    "    def __init__(self, func):\n"
    "        self.func = func\n"
    "\n"
    "    def __get__(self, obj, cls=None):\n"
    "        def _method(*args):\n"
    "            return self.func(obj, *args)\n"
    "\n"
    "        _method.register = self.register\n"
    "        return _method\n"
    "\n"
    "    def register(self, cls):\n"
    "        if not isinstance(cls, type):\n"
    "            raise TypeError('Invalid first argument to register()')\n"
    "        return cls\n"
    "\n\n"
    "class HeaderRegistry:\n"
    "    def __init__(self, strict=True):\n"
    "        self.strict = strict\n"
    "\n"
    "    def __call__(self, name, value):\n"
    "        if not name:\n"
    "            raise ValueError('empty header name')\n"
    "        return (name, value)\n"
    "\n\n"
    "class Policy:\n"
    "    def __init__(self):\n"
    "        self.header_factory = HeaderRegistry()\n"
)


def test_a_method_also_called_directly_is_no_hook(tmp_path: Path) -> None:
    """``getattr(self, f'parse_{…}')`` reaches ``parse_for`` alone; ``parse_expression``,
    which it could reach too, is called as ``parser.parse_expression()`` (rr3, jinja2's
    45 ``Parser.parse_*``): it keeps its entry point."""
    items = one_file_items(tmp_path, "m.py", _DIRECT)
    assert _entries(items, "expected an expression") == ["m.Parser.parse_expression"]
    assert _entries(items, "bad for") == []


def test_a_method_of_an_exported_class_is_no_hook(tmp_path: Path) -> None:
    """``getattr(self, 'to' + format)`` reaches ``tocsr``; ``Matrix.total``, of a class
    the module's ``__all__`` lists, is a call of its own (rr3)."""
    text = (
        "__all__ = ['Matrix']\n\n\n"
        "class Matrix:\n"
        "    def asformat(self, format):\n"
        "        return getattr(self, 'to' + format)()\n\n"
        "    def total(self, n):\n"
        "        if n < 0:\n"
        "            raise ValueError('negative total')\n"
        "        return n\n"
    )
    items = one_file_items(tmp_path, "m.py", text)
    assert _entries(items, "negative total") == ["m.Matrix.total"]


def test_a_method_stored_on_a_returned_function_is_no_hook(tmp_path: Path) -> None:
    """``_method.register = self.register`` (``singledispatchmethod``) hands users
    ``register``; no parser or tracer calls it (rr3)."""
    items = one_file_items(tmp_path, "m.py", _DIRECT)
    assert _entries(items, "Invalid first argument") == ["m.Dispatch.register"]


def test_the_call_of_a_public_class_the_library_builds_stays(tmp_path: Path) -> None:
    """``email.headerregistry.HeaderRegistry`` is built by ``Policy`` and documented to be
    called: a class importable under a public name keeps its ``__call__`` (rr3)."""
    items = one_file_items(tmp_path, "m.py", _DIRECT)
    assert _entries(items, "empty header name") == ["m.HeaderRegistry.__call__"]


_CHAIN = (
    "import sys\n"
    "\n\n"
    "class Tracer:\n"
    "    def run(self):\n"
    "        sys.settrace(self.hook)\n"
    "\n"
    "    def hook(self, frame, event, arg):\n"
    "        return self.a()\n"
    "\n"
    + "".join(
        f"    def {me}(self):\n        return self.{next_}()\n\n"
        for me, next_ in zip("abcde", "bcdef", strict=True)
    )
    + "    def f(self):\n        raise ValueError('deep')\n"
)


def test_the_answer_does_not_depend_on_what_was_asked_first(tmp_path: Path) -> None:
    """A None met at the depth cut was kept as the method's answer: asked after ``f``,
    ``b`` (two calls below ``hook``) was no hook, asked first it was (rr3)."""
    index, chains = chains_of(tmp_path, {"m.py": _CHAIN})
    api = PublicApi(index)
    names = [f"m.Tracer.{n}" for n in "abcdef"]
    first = HookMethods(index, chains.callers, api.exported, api.handed)
    forward = {n: first.kind(n) for n in names}
    second = HookMethods(index, chains.callers, api.exported, api.handed)
    backward = {n: second.kind(n) for n in reversed(names)}
    assert forward == backward
    assert forward["m.Tracer.b"] == "below"
