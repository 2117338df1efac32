"""The parts of a record's dependencies that come from names: what a module offers to
others (its interface), what changed in it, and whether any other module uses a name."""

from __future__ import annotations

from errdex.analyze.deps import (
    ALWAYS,
    digest,
    file_shape,
    imports_of_a_test,
    input_digest,
    interface,
    interface_change,
    module_names,
    module_reach,
    names_elsewhere,
    reused_item,
)
from errdex.analyze.facts import ModuleFacts
from errdex.analyze.walk import module_facts

CORE = """\
import os


def check(x):
    if x < 0:
        raise ValueError("negative")
    return x


class Shape:
    def area(self):
        raise NotImplementedError
"""


def _facts(text: str, rel: str = "pkg/core.py", module: str = "pkg.core") -> ModuleFacts:
    facts = module_facts(text, rel, rel, module, is_test=False)
    assert facts is not None
    return facts


def test_a_body_edit_leaves_the_interface_as_it_was() -> None:
    edited = CORE.replace("    return x", "    y = x + 1\n    return y - 1")
    assert interface_change(interface(_facts(CORE)), interface(_facts(edited))) == set()


def test_a_new_function_a_new_import_and_a_new_signature_are_named() -> None:
    edited = CORE.replace("import os", "import os\nimport sys").replace(
        "def check(x):", "def check(x, strict=False):"
    )
    edited += "\n\ndef _helper():\n    return 1\n"
    changed = interface_change(interface(_facts(CORE)), interface(_facts(edited)))
    assert changed == {"sys", "check", "_helper"}


def test_a_star_import_is_never_local() -> None:
    edited = "from pkg.base import *\n" + CORE
    assert ALWAYS in interface_change(interface(_facts(CORE)), interface(_facts(edited)))
    assert names_elsewhere([], {ALWAYS})


def test_a_name_is_elsewhere_only_when_another_module_uses_or_defines_it() -> None:
    user = _facts(
        "from pkg.core import check\n\n\ndef run():\n    return check(1)\n", "pkg/api.py", "pkg.api"
    )
    used = module_names(user)
    assert names_elsewhere([used], {"check"})
    assert not names_elsewhere([used], {"_helper"})
    assert not names_elsewhere([], {"check"})
    assert names_elsewhere([module_names(_facts(CORE))], {"area"})  # core defines it
    assert module_names(None) == frozenset()


def test_a_new_module_is_reached_through_its_name_and_its_methods() -> None:
    assert module_reach(_facts(CORE)) == {"core", "area"}
    assert module_reach(None) == set()


def test_the_input_digest_ignores_only_the_stamped_fields() -> None:
    item = (
        {"id": "a", "analyzedAt": "t1", "githubUrl": "u1", "lineNumber": 3},
        {"source": {"commit": "c1"}, "site": {"kind": "raise"}},
    )
    stamped = (
        {**item[0], "analyzedAt": "t2", "githubUrl": "u2"},
        {**item[1], "source": {"commit": "c2"}},
    )
    moved = ({**item[0], "lineNumber": 4}, item[1])
    assert input_digest(item) == input_digest(stamped)
    assert input_digest(item) != input_digest(moved)
    reused = reused_item(({**item[0], "documentation": "d"}, item[1]), stamped)
    assert reused[0]["githubUrl"] == "u2" and reused[0]["documentation"] == "d"
    assert reused[1]["source"] == {"commit": "c2"}


def test_a_digest_does_not_depend_on_which_parts_are_shared() -> None:
    # a value loaded from the cache shares what a fresh one does not: same digest
    word = "".join(["sha", "red"])
    shared = [word, word]
    apart = ["".join(["sha", "red"]), "".join(["sha", "red"])]
    assert digest(shared) == digest(apart)
    assert digest(shared) != digest(["shared", "other"])


def test_a_test_modules_new_import_counts_only_where_the_test_module_is_named() -> None:
    """``from pkg.core import check`` added to a test: ``check`` is used everywhere, but
    another module reaches the test's binding of it only through the test module."""
    before = "import pytest\n\n\ndef test_one():\n    pass\n"
    after = before.replace("import pytest\n", "import pytest\nfrom pkg.core import check\n")
    rel, name = "tests/test_core.py", "tests.test_core"
    old = file_shape("a", module_facts(before, rel, rel, name, is_test=True))
    new = module_facts(after, rel, rel, name, is_test=True)
    assert new is not None
    changed = interface_change(old.interface, interface(new))
    assert changed == {"check"}
    assert imports_of_a_test(old, new, changed, set()) == {"check"}
    assert imports_of_a_test(old, new, changed, {name}) == set()  # something star-imports it
    # a test function of that name too: not the import's alone
    both = after + "\n\ndef check():\n    pass\n"
    newer = module_facts(both, rel, rel, name, is_test=True)
    assert newer is not None
    assert (
        imports_of_a_test(old, newer, interface_change(old.interface, interface(newer)), set())
        == set()
    )
    # a library module's imports may be re-exported by a star import: never
    lib = file_shape("a", _facts(CORE))
    edited = _facts("from pkg.api import run\n" + CORE)
    assert imports_of_a_test(lib, edited, {"run"}, set()) == set()
