"""A public class its module raises to cut the work short and catches itself is no failure
(paired blind review, stop 38: jinja2's ``CompilerExit``, expatbuilder's ``ParseEscape``
written up as failures with "Catch … around the call", ``try-catch``, ``parse-error``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from .stdlib_items import one_file_items

BUILDER = """\
class ParseEscape(Exception):
    \"\"\"Exception raised to short-circuit parsing in the extractor.\"\"\"


class GiveUp(Exception):
    \"\"\"Exception to give up completely.\"\"\"


class Extractor:
    def start_element_handler(self, name):
        raise ParseEscape()

    def handle(self, names):
        for name in names:
            self.start_element_handler(name)

    def parse(self, names):
        try:
            self.handle(names)
        except ParseEscape:
            pass
        return names[:1]

    def dispatch_line(self, quitting):
        if quitting:
            raise GiveUp

    def run(self, quitting):
        try:
            self.dispatch_line(quitting)
        except GiveUp:
            pass
"""


PRIVATE_WAY = """\
class ParseEscape(Exception):
    \"\"\"Exception raised to short-circuit parsing in the extractor.\"\"\"


class Extractor:
    def _start_element_handler(self, name):
        raise ParseEscape()

    def _handle(self, names):
        for name in names:
            self._start_element_handler(name)

    def parse(self, names):
        try:
            self._handle(names)
        except ParseEscape:
            pass
        return names[:1]
"""

#: Review rr6: a public function with no ``try`` on the way, and a public generator.
LETS_OUT = """\
class StopParse(Exception):
    \"\"\"Raised to short-circuit parsing.\"\"\"


def _step(text):
    if not text:
        raise StopParse
    return text


def parse(text):
    \"\"\"Parse text.\"\"\"
    try:
        return _step(text)
    except StopParse:
        return None


def parse_raw(text):
    \"\"\"Parse without protection.\"\"\"
    return _step(text)


def each(items):
    for i in items:
        if i is None:
            raise StopParse
        yield i
"""


def test_a_signal_the_module_catches_gets_no_catch_advice(tmp_path: Path) -> None:
    items = one_file_items(tmp_path, "builder.py", PRIVATE_WAY)
    found = {r["errorClass"]: (r, e) for r, e in items}
    record, evidence = found["ParseEscape"]
    assert record["solutions"] == [
        "Nothing to fix: `ParseEscape` is how `builder` signals inside the module, which "
        "catches it by name; do not treat it as a failure."
    ]
    assert (
        "caught there by name, in builder.py (`builder.Extractor.parse` (line 16))"
        in (record["documentation"])
    )
    assert "No public function outside `builder` reaches this raise" in record["documentation"]
    assert record["handlingStrategy"] is None
    assert record["backgroundTag"] is None and "parse-error" not in record["tags"]
    assert evidence["role"]["kind"] == "signal"
    # what it says, run: the public call returns, nothing escapes
    script = "from builder import Extractor; assert Extractor().parse(['a', 'b']) == ['a']"
    subprocess.run([sys.executable, "-c", script], cwd=tmp_path, check=True)


def test_a_public_method_that_lets_it_out_keeps_it_an_error(tmp_path: Path) -> None:
    # the module catches ``ParseEscape`` in ``parse``, but the public ``Extractor.handle``
    # and ``start_element_handler`` let it out: not "nothing to fix" (the test before rr6
    # expected that here, a false statement for these two calls)
    items = one_file_items(tmp_path, "builder.py", BUILDER)
    found = {r["errorClass"]: (r, e) for r, e in items}
    record, evidence = found["ParseEscape"]
    assert "role" not in evidence
    assert not record["solutions"][0].startswith("Nothing to fix")
    # its docstring says nothing of cutting work short (``bdb.BdbQuit``, which reaches the
    # user's program from ``set_trace()``): an error as before
    give_up, give_up_evidence = found["GiveUp"]
    assert "role" not in give_up_evidence
    assert not give_up["solutions"][0].startswith("Nothing to fix")
    script = (
        "from builder import Extractor, ParseEscape\n"
        "try:\n    Extractor().handle(['a'])\nexcept ParseEscape:\n    pass\n"
        "else:\n    raise AssertionError('not raised')"
    )
    subprocess.run([sys.executable, "-c", script], cwd=tmp_path, check=True)


def test_a_public_caller_without_try_or_a_generator_lets_it_out(tmp_path: Path) -> None:
    items = one_file_items(tmp_path, "hs.py", LETS_OUT)
    records = [r for r, _ in items if r["errorClass"] == "StopParse"]
    assert sorted(r["lineNumber"] for r in records) == [7, 27]
    for record in records:
        assert not record["solutions"][0].startswith("Nothing to fix"), record["lineNumber"]
        assert record["handlingStrategy"] is not None
    script = (
        "import hs\n"
        "for call in (lambda: hs.parse_raw(''), lambda: list(hs.each([None]))):\n"
        "    try:\n        call()\n    except hs.StopParse:\n        pass\n"
        "    else:\n        raise AssertionError('not raised')\n"
        "assert hs.parse('') is None"
    )
    subprocess.run([sys.executable, "-c", script], cwd=tmp_path, check=True)
