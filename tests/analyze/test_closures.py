"""Nested functions handed out by their enclosing function lead up to it."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

from errdex.analyze.closures import handed_out
from errdex.scan import scan_checkout
from errdex.source import open_source

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


_OWN_CALLS = (
    "__all__ = ['factory', 'user', 'make', 'apply_all']\n"
    "\n\n"
    "def factory():\n"
    "    def inner(x):\n"
    "        raise ValueError('bad')\n"
    "    return inner\n"
    "\n\n"
    "def user():\n"
    "    try:\n"
    "        f = factory()\n"
    "    except ValueError:\n"
    "        return None\n"
    "    return f\n"
    "\n\n"
    "def _check(x):\n"
    "    if x < 0:\n"
    "        raise TypeError('negative')\n"
    "\n\n"
    "def make(x):\n"
    "    def run(y):\n"
    "        _check(y)\n"
    "    _prepare(x)\n"
    "    return run\n"
    "\n\n"
    "def _prepare(x):\n"
    "    _check(x)\n"
    "\n\n"
    "def apply_all(fn, items):\n"
    "    def checked(x):\n"
    "        if x < 0:\n"
    "            raise LookupError('negative item')\n"
    "        return x\n"
    "    return fn(checked, items)\n"
)


def _own_calls(tmp_path: Path) -> dict[str, Any]:
    return {r["errorMessage"]: ev for r, ev in one_file_items(tmp_path, "m.py", _OWN_CALLS)}


def test_what_catches_around_a_factory_call_catches_nothing(tmp_path: Path) -> None:
    """A read-only review (session 41): ``factory()`` raises nothing, so ``user``'s
    ``except ValueError`` around it catches nothing (no walk goes above a hand-out)."""
    bad = _own_calls(tmp_path)["bad"]
    assert "caughtBy" not in bad
    assert [e["qualname"] for e in bad["handedOut"]] == ["m.factory"]


def test_a_function_that_also_calls_the_way_down_is_an_entry_point(tmp_path: Path) -> None:
    """``make`` calls ``_check`` through ``_prepare`` as well as returning ``run``."""
    negative = _own_calls(tmp_path)["negative"]
    assert [e["qualname"] for e in negative["entryPoints"]] == ["m.make"]
    assert "handedOut" not in negative


def test_a_nested_function_passed_to_a_called_parameter_runs_in_the_call(
    tmp_path: Path,
) -> None:
    """``apply_all`` calls ``fn``, which runs ``checked`` during that same call."""
    item = _own_calls(tmp_path)["negative item"]
    assert [e["qualname"] for e in item["entryPoints"]] == ["m.apply_all"]
    assert "handedOut" not in item


def test_a_hand_out_is_said_from_the_raise_s_own_module_only(tmp_path: Path) -> None:
    """``pkg.a.sub`` is a submodule of the raise's module ``pkg.a``, not that module."""
    files = {
        "pkg/__init__.py": "",
        "pkg/a/__init__.py": "def check(x):\n    if x < 0:\n        raise ValueError('neg')\n",
        "pkg/a/sub.py": (
            "from pkg.a import check\n\n"
            "def factory():\n"
            "    def inner(x):\n"
            "        check(x)\n"
            "    return inner\n"
        ),
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    items = scan_checkout(open_source(str(tmp_path), repo="o/m"), repo="o/m").items
    ((_, evidence),) = items
    assert evidence.get("handedOut", []) == []


_TWICE = (
    "__all__ = ['make_pass_decorator']\n"
    "\n\n"
    "def make_pass_decorator(kind):\n"
    "    def decorator(f):\n"
    "        def new_func(obj):\n"
    "            if obj is None:\n"
    "                raise RuntimeError('no object')\n"
    "            return f(obj)\n"
    "        return new_func\n"
    "    return decorator\n"
    "\n\n"
    "def use(kind):\n"
    "    try:\n"
    "        return make_pass_decorator(kind)\n"
    "    except RuntimeError:\n"
    "        return None\n"
)


def test_a_factory_of_factories_hands_out_its_product(tmp_path: Path) -> None:
    """Above a hand-out only the enclosing function's own hand-out is walked
    (``click.make_pass_decorator``); ``use``'s call of it raises nothing."""
    ((_, evidence),) = one_file_items(tmp_path, "m.py", _TWICE)
    assert [(e["qualname"], e.get("handsOut")) for e in evidence["handedOut"]] == [
        ("m.make_pass_decorator", "m.make_pass_decorator.<locals>.decorator")
    ]
    assert "caughtBy" not in evidence
