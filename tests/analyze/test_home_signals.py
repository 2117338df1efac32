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


def test_a_signal_the_module_catches_gets_no_catch_advice(tmp_path: Path) -> None:
    items = one_file_items(tmp_path, "builder.py", BUILDER)
    found = {r["errorClass"]: (r, e) for r, e in items}
    record, evidence = found["ParseEscape"]
    assert record["solutions"] == [
        "Nothing to fix: `ParseEscape` is how `builder` signals inside the module, which "
        "catches it by name; do not treat it as a failure."
    ]
    assert (
        "caught there by name, in builder.py (`builder.Extractor.parse` (line 20))"
        in (record["documentation"])
    )
    assert "No public function outside `builder` reaches this raise" in record["documentation"]
    assert record["handlingStrategy"] is None
    assert record["backgroundTag"] is None and "parse-error" not in record["tags"]
    assert evidence["role"]["kind"] == "signal"
    # its docstring says nothing of cutting work short (``bdb.BdbQuit``, which reaches the
    # user's program from ``set_trace()``): an error as before
    give_up, give_up_evidence = found["GiveUp"]
    assert "role" not in give_up_evidence
    assert not give_up["solutions"][0].startswith("Nothing to fix")
    # what it says, run: the public call returns, nothing escapes
    script = "from builder import Extractor; assert Extractor().parse(['a', 'b']) == ['a']"
    subprocess.run([sys.executable, "-c", script], cwd=tmp_path, check=True)
