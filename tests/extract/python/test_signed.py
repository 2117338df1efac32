"""A signed number inside a tuple's repr prints as ``repr()`` writes it, unquoted
(extract/python/signed.py): ``ValueError("v=", -1)`` prints ``('v=', -1)``, never
``('v=', '-1')``. Each template is checked against what the raise really prints."""

from __future__ import annotations

import pytest

from errdex.extract.python import extract_python

from ._fixture import raised

RAISES = [
    'ValueError("v=", -1)',
    'KeyError("a", -1)',
    'ValueError(-1, "b")',
    "ValueError(-1, -2)",
    'ValueError("a", (1, -2))',
    'ValueError("v", ((-1, 2), -3))',
    'ValueError("a", -1j)',
    'ValueError("v", +1)',
    "ValueError(-1j)",
    "KeyError(-1.5)",
]
BOUND = [  # a name bound to a signed number: its repr has no quotes either
    'n = -1\n    raise ValueError("v=", n)',
    'while (n := -1) < 0:\n        raise ValueError(n, "x")',
]


@pytest.mark.parametrize("body", [f"raise {r}" for r in RAISES] + BOUND)
def test_the_template_matches_what_python_prints(body: str) -> None:
    code = "def f():\n    " + body + "\n"
    printed = str(raised(code, "f()"))
    (site,) = extract_python(code, "m.py", module="m")
    assert site.template.match(printed) is not None, (site.template.display, printed)
