"""Class names as tracebacks print them, matched against a real catalogue.

The catalogue is this machine's ``re``, ``configparser`` and ``csv`` (scanned for real)
and a small package with its own hierarchy; every traceback is printed by running code.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from errdex.match import match
from errdex.match.classes import ClassResolver, canonical_class
from errdex.match.index import MatchIndex
from errdex.match.rank import Candidate
from errdex.store import SqliteStore

from ._stdlib_catalogue import build, innermost, run

ERRORS = """\
class ToolError(Exception):
    \"\"\"Base of the tool's errors.\"\"\"


class ConfigError(ToolError):
    pass
"""
API = """\
from .errors import ConfigError, ToolError


def load(kind):
    raise ToolError(f"cannot load {kind} from this place")


def config(key):
    raise ConfigError(f"the configuration has no key {key!r}")
"""


@pytest.fixture(scope="module")
def catalogue(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("classes")
    pkg = root / "pkg" / "src" / "tinytool"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("from .errors import ToolError\n")
    (pkg / "errors.py").write_text(ERRORS)
    (pkg / "api.py").write_text(API)
    return build(
        root / "errdex.db",
        ["re/*.py", "configparser.py", "csv.py"],
        root / "pkg",
        "example/tinytool",
    )


def innermost_line(traceback: str) -> int:
    return innermost(traceback)[1]


def printed_class(traceback: str) -> str:
    return traceback.strip().splitlines()[-1].partition(":")[0]


def renamed(traceback: str, name: str) -> str:
    """The traceback with its error's class printed as ``name``."""
    head, _, last = traceback.strip().rpartition("\n")
    return head + "\n" + name + ":" + last.partition(":")[2] + "\n"


def tool(catalogue: Path, call: str) -> str:
    return run(f"from tinytool.api import *\n{call}", catalogue.parent / "pkg" / "src")


def top(traceback: str, db: Path) -> Candidate:
    found = match(traceback, db=db)
    assert found, traceback
    return found[0]


def index_of(db: Path) -> MatchIndex:
    with SqliteStore(db) as store:
        return MatchIndex.build(store.iter_envelopes())


def test_re_error_as_printed(catalogue: Path) -> None:
    tb = run("import re; re.compile('(')")
    assert printed_class(tb) == "re.error"
    best = top(tb, catalogue)
    assert (best.filePath, best.lineNumber) == ("Lib/re/_parser.py", innermost_line(tb))
    classes = index_of(catalogue).classes
    # 3.13 renamed it re.PatternError; it is defined in re._constants
    for name in ("re.error", "re.PatternError", "sre_constants.error"):
        assert classes.relation(name, "error", "re._constants.error") == "same", name
    assert classes.relation("re.error", "ValueError") == "unrelated"


def test_configparser_class_as_printed_and_as_its_base(catalogue: Path) -> None:
    tb = run("import configparser; configparser.ConfigParser().read_string('[a]\\nx=1\\nx=2\\n')")
    assert printed_class(tb) == "configparser.DuplicateOptionError"
    line = innermost_line(tb)
    best = top(tb, catalogue)
    assert (best.filePath, best.lineNumber) == ("Lib/configparser.py", line)
    assert "class DuplicateOptionError agrees" in best.reasons
    # the paste names the base class (``except configparser.Error as e`` and a report)
    base = top(renamed(tb, "configparser.Error"), catalogue)
    assert (base.filePath, base.lineNumber) == ("Lib/configparser.py", line)
    assert "class Error is related to the site's DuplicateOptionError" in base.reasons
    assert base.confidence < best.confidence


def test_csv_error_defined_in_c(catalogue: Path) -> None:
    tb = run("import csv; csv.Sniffer().sniff('')")
    assert printed_class(tb) == "_csv.Error"
    line = innermost_line(tb)
    best = top(tb, catalogue)
    assert (best.filePath, best.lineNumber) == ("Lib/csv.py", line)
    # the documented name of the same class agrees as much
    documented = top(renamed(tb, "csv.Error"), catalogue)
    assert (documented.filePath, documented.lineNumber, documented.confidence) == (
        "Lib/csv.py",
        line,
        best.confidence,
    )
    # configparser.Error is another class that only shares the short name
    other = top(renamed(tb, "configparser.Error"), catalogue)
    assert other.confidence < best.confidence
    assert any("only its namesake" in r for r in other.reasons)


def test_repository_hierarchy_both_ways(catalogue: Path) -> None:
    tb = tool(catalogue, "load('disk')")
    assert printed_class(tb) == "tinytool.errors.ToolError"
    load_line = innermost_line(tb)
    assert top(tb, catalogue).lineNumber == load_line
    # the public re-export names the same class
    public = top(renamed(tb, "tinytool.ToolError"), catalogue)
    assert public.lineNumber == load_line and "class ToolError agrees" in public.reasons
    # the paste names a subclass of the class the site raises
    sub = top(renamed(tb, "tinytool.errors.ConfigError"), catalogue)
    assert sub.lineNumber == load_line
    assert "class ConfigError is related to the site's ToolError" in sub.reasons
    # a subclass raised where the paste names the base
    tb = tool(catalogue, "config('colour')")
    assert printed_class(tb) == "tinytool.errors.ConfigError"
    base = top(renamed(tb, "tinytool.errors.ToolError"), catalogue)
    assert base.lineNumber == innermost_line(tb)
    assert "class ToolError is related to the site's ConfigError" in base.reasons


def test_an_unrelated_class_is_not_the_site(catalogue: Path) -> None:
    tb = tool(catalogue, "load('disk')")
    found = match(renamed(tb, "ValueError"), db=catalogue)
    assert all(c.filePath != "src/tinytool/api.py" for c in found)


def test_relations_read_from_the_hierarchy() -> None:
    classes = ClassResolver(
        {
            "jax._src.errors.ConcretizationTypeError": ["jax._src.errors.JAXTypeError"],
            "jax._src.errors.JAXTypeError": ["builtins.TypeError"],
            "pandas.errors.InvalidIndexError": ["builtins.Exception"],
        }
    )
    # jax prints the public module it sets as __module__; the site resolves to _src
    cte = "jax._src.errors.ConcretizationTypeError"
    assert classes.relation("jax.errors.ConcretizationTypeError", "X", cte) == "same"
    assert classes.relation("TypeError", "ConcretizationTypeError", cte) == "subclass"
    assert classes.relation("jax.errors.ConcretizationTypeError", "TypeError") == "superclass"
    assert classes.relation("LookupError", "KeyError") == "subclass"
    inv = "pandas.errors.InvalidIndexError"
    assert classes.relation("pandas.errors.InvalidIndexError", "InvalidIndexError", inv) == "same"
    assert classes.relation("InvalidIndexError", "InvalidIndexError") == "same"
    assert classes.relation("pandas.errors.InvalidIndexError", "KeyError") == "unrelated"


def test_canonical_spellings() -> None:
    assert canonical_class("_csv.Error") == "csv.Error"
    assert canonical_class("IOError") == "builtins.OSError"
    assert canonical_class("socket.timeout") == "builtins.TimeoutError"
    assert canonical_class("ValueError") == "builtins.ValueError"
    assert canonical_class("__main__.Oops") == "__main__.Oops"


def test_base_two_classes_up_that_no_site_raises(catalogue: Path) -> None:
    """InterpolationMissingOptionError < InterpolationError < Error: no site raises the
    middle class, so only the ancestors the analyst stored relate the paste to the site."""
    tb = run(
        "import configparser\n"
        "c = configparser.ConfigParser()\n"
        "c.read_string('[a]\\nx = %(nope)s\\n')\n"
        "c.get('a', 'x')\n"
    )
    assert printed_class(tb) == "configparser.InterpolationMissingOptionError"
    line = innermost_line(tb)
    base = top(renamed(tb, "configparser.Error"), catalogue)
    assert (base.filePath, base.lineNumber) == ("Lib/configparser.py", line)
    assert any(r.startswith("class Error is related to the site's") for r in base.reasons)


def test_expat_error_under_its_public_names() -> None:
    classes = ClassResolver({})
    assert classes.relation("xml.parsers.expat.ExpatError", "ExpatError", "pyexpat.ExpatError") == (
        "same"
    )
    assert classes.relation("pyexpat.ExpatError", "ExpatError", "xml.parsers.expat.error") == "same"
