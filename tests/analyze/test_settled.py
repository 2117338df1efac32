"""Names whose value is fixed, read as known by the entry-point walk (blind review stop
31: four callers whose arguments rule the raise out were listed as entry points)."""

from __future__ import annotations

import ast
from pathlib import Path

from errdex.analyze.settled import local_constants, note_top_assign, settled_names

from .stdlib_items import ON_311, Item, one_file_items, stdlib_items


def _entries(items: list[Item], message: str) -> list[str]:
    (evidence,) = [e for r, e in items if r["errorMessage"] == message]
    return [e["qualname"] for e in evidence["entryPoints"]]


def test_a_top_level_name_is_settled_when_bound_once_and_never_declared_global() -> None:
    tree = ast.parse(
        "ONE = 1\nMISSING = object()\nTWICE = 1\nTWICE = 2\nCOUNT = 0\nCOUNT += 1\n"
        "CACHE = None\nA, B = 1, 2\nimport os\nos = 3\n"
    )
    raw: dict = {}
    for stmt in tree.body:
        if isinstance(stmt, (ast.Assign, ast.AugAssign)):
            note_top_assign(stmt, raw)
    found = settled_names(raw, {"CACHE"}, {"os"})
    assert found == {"ONE": (1, True, 1), "MISSING": (2, False, None)}


def test_a_local_constant_is_one_bound_once_and_not_a_parameter() -> None:
    literals = {"name": "__main__", "n": 0, "mode": "r"}
    lines = {"name": [3], "n": [4, 6], "mode": [5]}
    assert local_constants(literals, lines, ("mode", "*args")) == {"name": "__main__"}


_SENTINELS = (
    "MISSING = object()\n"
    "_ONE = 1\n"
    "\n\n"
    "def field(*, default=MISSING, default_factory=MISSING):\n"
    "    if default is not MISSING and default_factory is not MISSING:\n"
    "        raise ValueError('cannot specify both default and default_factory')\n"
    "    return default\n"
    "\n\n"
    "def get_field(default):\n"
    "    return field(default=default)\n"
    "\n\n"
    "def both(default, factory):\n"
    "    return field(default=default, default_factory=factory)\n"
    "\n\n"
    "def randrange(start, stop, step=_ONE):\n"
    "    if step != 1:\n"
    "        raise ValueError('a step other than one')\n"
    "    return start\n"
    "\n\n"
    "def randint(a, b):\n"
    "    return randrange(a, b + 1)\n"
    "\n\n"
    "def details(mod_name):\n"
    "    if mod_name.startswith('.'):\n"
    "        raise ImportError('Relative module names not supported')\n"
    "\n\n"
    "def main_details():\n"
    "    main_name = '__main__'\n"
    "    return details(main_name)\n"
    "\n\n"
    "def run_module(name):\n"
    "    return details(name)\n"
    "\n\n"
    "def add_option(*args, **kwargs):\n"
    "    if not isinstance(args[0], str):\n"
    "        if not (len(args) == 1 and not kwargs):\n"
    "            raise TypeError('invalid arguments')\n"
    "        raise TypeError('not an option string')\n"
    "\n\n"
    "def main():\n"
    "    add_option('-o', '--outfile', dest='outfile')\n"
    "\n\n"
    "def add_options(options):\n"
    "    for option in options:\n"
    "        add_option(option)\n"
)


def test_defaults_local_constants_and_star_args_that_rule_the_guard_out(tmp_path: Path) -> None:
    """``get_field`` leaves ``default_factory`` at the module's ``MISSING``, ``randint``
    leaves ``step`` at ``_ONE`` (1), ``main_details`` passes a local bound once to
    ``'__main__'``, and ``main`` passes string literals as ``*args``: none of them reaches
    the raise. Their neighbours, which pass what they were given, do."""
    items = one_file_items(tmp_path, "m.py", _SENTINELS)
    assert _entries(items, "cannot specify both default and default_factory") == [
        "m.field",
        "m.both",
    ]
    assert _entries(items, "a step other than one") == ["m.randrange"]
    assert _entries(items, "Relative module names not supported") == [
        "m.details",
        "m.run_module",
    ]
    assert _entries(items, "not an option string") == ["m.add_option", "m.add_options"]
    # add_options passes one argument and no keywords: never "invalid arguments"
    assert _entries(items, "invalid arguments") == ["m.add_option"]


def test_a_name_a_function_rebinds_is_not_settled(tmp_path: Path) -> None:
    """``reset`` declares ``MISSING`` global and binds it again: it is not one object for
    good, so a caller leaving the default is kept."""
    text = _SENTINELS + "\n\ndef reset():\n    global MISSING\n    MISSING = None\n"
    items = one_file_items(tmp_path, "m.py", text)
    # equally near, the two callers come in the order the module defines them
    assert _entries(items, "cannot specify both default and default_factory") == [
        "m.field",
        "m.get_field",
        "m.both",
    ]


@ON_311
def test_review_callers_whose_arguments_rule_the_raise_out() -> None:
    """Blind review stop 31, records 06, 14 and 49 (false entry points): ``runpy.run_path``
    through ``_get_main_module_details`` (``main_name = "__main__"``), ``dataclass`` and
    ``make_dataclass`` through ``_get_field`` (``field(default=default)``), ``cProfile.main``
    and ``lib2to3.main.main`` (``add_option('-o', …)``)."""
    items = stdlib_items(
        "runpy.py", "dataclasses.py", "optparse.py", "cProfile.py", "lib2to3/main.py"
    )
    found = {
        (r["filePath"], r["lineNumber"]): [e["qualname"] for e in ev["entryPoints"]]
        for r, ev in items
    }
    assert found["Lib/runpy.py", 107] == ["runpy.run_module"]
    assert found["Lib/dataclasses.py", 387] == ["dataclasses.field"]
    assert found["Lib/optparse.py", 1004] == [
        "optparse.OptionContainer.add_option",
        "optparse.OptionContainer.add_options",
        "optparse.OptionParser.__init__",
    ]


def test_keywords_collected_by_kwargs_are_known_by_name(tmp_path: Path) -> None:
    """``argparse.add_argument``: ``dest`` passed twice only when a caller passes
    ``dest=``; ``make`` passes other keywords, ``make_dest`` passes it. A body that adds
    items to ``kwargs`` before the test (``setdefault``) is not judged by the call."""
    items = one_file_items(
        tmp_path,
        "m.py",
        "def add_argument(*args, **kwargs):\n"
        "    if args and 'dest' in kwargs:\n"
        "        raise ValueError('dest supplied twice')\n"
        "\n\n"
        "def add_default(*args, **kwargs):\n"
        "    kwargs.setdefault('dest', args[0])\n"
        "    if 'dest' in kwargs:\n"
        "        raise ValueError('dest given')\n"
        "\n\n"
        "def make():\n"
        "    add_argument('path', nargs='*')\n"
        "    add_default('path', nargs='*')\n"
        "\n\n"
        "def make_dest(name):\n"
        "    add_argument('path', dest=name)\n",
    )
    assert _entries(items, "dest supplied twice") == ["m.add_argument", "m.make_dest"]
    assert _entries(items, "dest given") == ["m.add_default", "m.make"]


def test_kwargs_a_body_pops_from_are_known_only_when_empty(tmp_path: Path) -> None:
    """``logging.basicConfig`` pops keywords before testing ``"stream" in kwargs``: a
    call passing none leaves it empty; one passing ``force`` may leave it empty or not."""
    items = one_file_items(
        tmp_path,
        "m.py",
        "def configure(**kwargs):\n"
        "    kwargs.pop('force', None)\n"
        "    if not kwargs:\n"
        "        raise ValueError('nothing to configure')\n"
        "\n\n"
        "def forced():\n"
        "    configure(force=True)\n"
        "\n\n"
        "def plain():\n"
        "    configure()\n",
    )
    assert _entries(items, "nothing to configure") == ["m.configure", "m.forced", "m.plain"]
