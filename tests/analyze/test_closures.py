"""Nested functions handed out by their enclosing function lead up to it."""

from __future__ import annotations

import ast
from pathlib import Path

from errdex.analyze.closures import handed_out

from .fixture_chains import chains_of
from .stdlib_items import ON_311, one_file_items, stdlib_items

_WRAP = (
    "__all__ = ['validator']\n"
    "\n\n"
    "def check_status(status):\n"
    "    if len(status) < 4:\n"
    "        raise ValueError('status too short')\n"
    "\n\n"
    "def validator(application):\n"
    "    def lint_app(environ, start_response):\n"
    "        def start_response_wrapper(status, headers):\n"
    "            check_status(status)\n"
    "            return start_response(status, headers)\n"
    "        return application(environ, start_response_wrapper)\n"
    "    return lint_app\n"
    "\n\n"
    "def serve(port, make):\n"
    "    def handler(request):\n"
    "        check_status(request)\n"
    "    Thread(target=handler).start()\n"
    "    return make(port)\n"
)


def test_the_function_that_returns_the_closure_is_the_way_in(tmp_path: Path) -> None:
    """Blind review stop 35, record 32: ``check_status`` is no name ``__all__`` offers;
    users reach it through the app ``validator()`` returns. ``validator(app)`` itself
    raises nothing, so it is kept apart from the calls (``handedOut``) and the trigger
    says it."""
    ((record, evidence),) = one_file_items(tmp_path, "m.py", _WRAP)
    assert [e["qualname"] for e in evidence["entryPoints"]] == ["m.check_status"]
    handed = evidence["handedOut"]
    assert [(e["qualname"], e.get("handsOut")) for e in handed] == [
        ("m.validator", "m.validator.<locals>.lint_app")
    ]
    assert handed[0]["via"] == [
        "m.validator",
        "m.validator.<locals>.lint_app",
        "m.validator.<locals>.lint_app.<locals>.start_response_wrapper",
        "m.check_status",
    ]
    assert "reached by calling what these hand out: `m.validator`" in record["triggerScenarios"]


def test_a_callback_handed_to_other_code_is_not_followed(tmp_path: Path) -> None:
    """A thread runs ``handler`` elsewhere: nothing it raises reaches ``serve``'s caller."""
    _, chains = chains_of(tmp_path, {"m.py": "from threading import Thread\n" + _WRAP})
    hops = chains.walk("m.check_status", "builtins.ValueError", ["len(status) < 4"]).hops
    reached = {h.qualname for h in hops}
    assert "m.validator" in reached
    assert "m.serve.<locals>.handler" in reached
    assert "m.serve" not in reached


def test_only_what_is_used_as_a_value_is_handed_out() -> None:
    tree = ast.parse(
        "def outer(items, flag):\n"
        "    def key(x):\n"
        "        return x\n"
        "    def helper():\n"
        "        return 1\n"
        "    def rebound():\n"
        "        return 2\n"
        "    rebound = None\n"
        "    helper()\n"
        "    return sorted(items, key=key)\n"
        "\n\n"
        "def deco(func):\n"
        "    def wrapper(*args):\n"
        "        return func(*args)\n"
        "    def other(*args):\n"
        "        return func(*args)\n"
        "    if func:\n"
        "        return wraps(func)(wrapper)\n"
        "    return other, 1\n"
    )
    outer, deco = tree.body
    assert isinstance(outer, ast.FunctionDef) and isinstance(deco, ast.FunctionDef)
    assert handed_out(outer) == ()  # ``sorted`` is handed ``key``; nothing is returned
    assert handed_out(deco) == ("other", "wrapper")


@ON_311
def test_wsgiref_check_status_is_reached_through_validator() -> None:
    items = stdlib_items("wsgiref/validate.py")
    (status,) = [e for r, e in items if r["errorMessage"].startswith("The status string")]
    assert [e["qualname"] for e in status["handedOut"]] == ["wsgiref.validate.validator"]


_FACTORIES = (
    "def check(args):\n"
    "    if not args:\n"
    "        raise TypeError('requires at least 1 positional argument')\n"
    "\n\n"
    "def dispatch(func):\n"
    "    def wrapper(*args):\n"
    "        check(args)\n"
    "        return func(*args)\n"
    "    return wrapper\n"
    "\n\n"
    "class Method:\n"
    "    def __init__(self, func):\n"
    "        self.dispatcher = dispatch(func)\n"
    "\n\n"
    "def dataclass(cls=None):\n"
    "    def wrap(cls):\n"
    "        check(cls)\n"
    "        return cls\n"
    "    if cls is None:\n"
    "        return wrap\n"
    "    return wrap(cls)\n"
)


def test_a_caller_of_a_factory_is_no_way_in(tmp_path: Path) -> None:
    """``singledispatchmethod.__init__`` keeps what ``singledispatch`` returns: building
    it raises nothing (a caller above the hand-out may or may not call the product). A
    function that also calls the nested one (``dataclass(cls)`` calls ``wrap``) stays
    an entry point."""
    items = one_file_items(tmp_path, "m.py", _FACTORIES)
    ((_, evidence),) = items
    assert [e["qualname"] for e in evidence["entryPoints"]] == ["m.check", "m.dataclass"]
    assert [e["qualname"] for e in evidence["handedOut"]] == ["m.dispatch"]
