"""A frame on a raise that re-raises an exception made elsewhere does not decide the site.

The package is jinja2's shape in small: the parser raises ``TemplateSyntaxError``, the
environment catches it and re-raises it with its traceback rewritten (the parser's frames
dropped, a frame of the template printed inside the re-raise). The catalogue is scanned
from real files and each traceback is printed by running them.
"""

from __future__ import annotations

from pathlib import Path

from errdex.match import match
from errdex.match.rank_frames import RELAY_FRAME
from errdex.scan import scan_checkout, store_scan
from errdex.source import open_source
from errdex.store import SqliteStore

from .conftest import SHA, build_package, traceback_of

EXCEPTIONS = """\
class TemplateError(Exception):
    pass


class TemplateSyntaxError(TemplateError):
    pass
"""
PARSER = """\
from .exceptions import TemplateSyntaxError


def parse(source):
    if source.startswith("{% ") and source.endswith(" %}"):
        name = source[3:-3].strip()
        if name not in ("if", "for"):
            raise TemplateSyntaxError(f"Encountered unknown tag {name!r}.")
    return [source]
"""
DEBUG = """\
import sys


def rewrite_traceback_stack(filename):
    _, value, _ = sys.exc_info()
    # the parser's frames go; a frame of the template itself stands in for them
    code = compile("raise __exception__", filename, "exec")
    try:
        exec(code, {"__exception__": value.with_traceback(None)})
    except BaseException:
        tb = sys.exc_info()[2].tb_next
    return value.with_traceback(tb)
"""
ENVIRONMENT = """\
from .debug import rewrite_traceback_stack
from .exceptions import TemplateSyntaxError
from .parser import parse


class Environment:
    def from_string(self, source):
        try:
            return parse(source)
        except TemplateSyntaxError:
            self.handle_exception()

    def render(self, source, **context):
        try:
            return "".join(part.format(**context) for part in parse(source))
        except Exception:
            self.handle_exception()

    def handle_exception(self):
        raise rewrite_traceback_stack("<unknown>")
"""
FACTORY = """\
from .exceptions import TemplateError


def make_error(name):
    return TemplateError(f"no loader can find {name!r}")
"""
LOADER = """\
from .factory import make_error


def load(name):
    raise make_error(name)
"""
FILTERS = """\
def to_int(text):
    if not text.isdigit():
        raise ValueError(f"not a number: {text!r}")
    return int(text)
"""
MODULES = {
    "exceptions.py": EXCEPTIONS,
    "parser.py": PARSER,
    "debug.py": DEBUG,
    "environment.py": ENVIRONMENT,
    "factory.py": FACTORY,
    "loader.py": LOADER,
    "filters.py": FILTERS,
}


def test_a_rewritten_re_raise_lets_the_message_and_class_decide(tmp_path: Path) -> None:
    db = build_package(tmp_path, "tmpl", MODULES)
    traceback = traceback_of(
        tmp_path, "from tmpl.environment import Environment; Environment().from_string('{% foo %}')"
    )
    # printed exactly as CPython prints it: the re-raise is the innermost package frame,
    # the template's own frame inside it, the parser's frames gone
    assert 'environment.py", line 20, in handle_exception' in traceback
    assert traceback.rstrip().endswith(
        'File "<unknown>", line 1, in <module>\n'
        "tmpl.exceptions.TemplateSyntaxError: Encountered unknown tag 'foo'."
    )
    assert "parser.py" not in traceback
    candidates = match(traceback, db=db)
    best = candidates[0]
    assert (best.filePath, best.lineNumber) == ("src/tmpl/parser.py", 8)
    assert best.errorClass == "TemplateSyntaxError"
    assert best.holes == {"name": "'foo'"}
    assert any("re-raises the error at src/tmpl/environment.py:20" in r for r in best.reasons)
    relay = next(c for c in candidates if c.filePath == "src/tmpl/environment.py")
    assert relay.lineNumber == 20
    assert any("does not decide the site" in r for r in relay.reasons)
    assert relay.confidence < best.confidence
    # the re-raise's frame informed: a little above the message alone, still not certain
    alone = match("tmpl.exceptions.TemplateSyntaxError: Encountered unknown tag 'foo'.", db=db)[0]
    assert (alone.filePath, alone.lineNumber) == ("src/tmpl/parser.py", 8)
    assert alone.confidence < best.confidence < 0.97


def test_a_re_raise_nothing_else_explains_is_still_the_answer(tmp_path: Path) -> None:
    db = build_package(tmp_path, "tmpl", MODULES)
    # raised by Python itself while rendering, as a template's own code raises in jinja2:
    # no site raises the class, only the re-raise's frame points anywhere
    traceback = traceback_of(
        tmp_path, "from tmpl.environment import Environment; Environment().render('{x.y}', x=None)"
    )
    assert traceback.rstrip().endswith(
        'File "<unknown>", line 1, in <module>\n'
        "AttributeError: 'NoneType' object has no attribute 'y'"
    )
    assert 'environment.py", line 20, in handle_exception' in traceback
    best = next(c for c in match(traceback, db=db) if not c.folded)
    assert (best.filePath, best.lineNumber) == ("src/tmpl/environment.py", 20)
    assert any("does not decide the site" in r for r in best.reasons)
    # a one-value fit and a weak frame: far from the innermost frame's 0.97
    assert best.confidence <= 1 - (1 - RELAY_FRAME) * (1 - 0.3)


def test_a_raise_of_what_a_call_builds_printed_innermost_is_its_site(tmp_path: Path) -> None:
    db = build_package(tmp_path, "tmpl", MODULES)
    traceback = traceback_of(tmp_path, "from tmpl.loader import load; load('index.html')")
    assert traceback.rstrip().endswith(
        'loader.py", line 5, in load\n'
        "    raise make_error(name)\n"
        "tmpl.exceptions.TemplateError: no loader can find 'index.html'"
    )
    best = match(traceback, db=db)[0]
    assert (best.filePath, best.lineNumber) == ("src/tmpl/loader.py", 5)
    assert "the innermost frame is src/tmpl/loader.py:5" in best.reasons


def test_the_re_raise_lifts_its_own_repository_over_a_rival_of_the_same_text(
    tmp_path: Path,
) -> None:
    db = build_package(tmp_path, "tmpl", MODULES)
    # another library in the same catalogue raises the very same ValueError text
    rival = tmp_path / "rival"
    (rival / "calc").mkdir(parents=True)
    (rival / "calc" / "__init__.py").write_text("")
    (rival / "calc" / "convert.py").write_text(FILTERS)
    checkout = open_source(str(rival), repo="example/calc", sha=SHA)
    with SqliteStore(db) as store:
        result = scan_checkout(checkout, repo="example/calc")
        store_scan(store, checkout, "example/calc", result, "2026-11-29T00:00:00.000Z")
    traceback = traceback_of(
        tmp_path,
        "from tmpl import environment, filters\n"
        "environment.parse = lambda source: [filters.to_int(source)]\n"
        "environment.Environment().render('x')\n",
    )
    assert "filters.py" not in traceback  # the rewrite dropped the raising frame
    assert traceback.rstrip().endswith("ValueError: not a number: 'x'")
    candidates = [c for c in match(traceback, db=db) if not c.folded]
    assert [(c.repo, c.filePath) for c in candidates[:2]] == [
        ("example/tmpl", "src/tmpl/filters.py"),
        ("example/calc", "calc/convert.py"),
    ]
    assert any("in this site's repository" in r for r in candidates[0].reasons)
    assert candidates[1].confidence < candidates[0].confidence
