"""The benchmark's independent reference count (bench/reference_sites.py), per language,
and bench/extract_languages.py run end to end on a small tree."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1] / "bench"
sys.path.insert(0, str(BENCH))
from reference_sites import parse_only, reference_lines  # noqa: E402


def lines_of(language: str, source: str, path: str = "") -> list[int]:
    text = textwrap.dedent(source)
    path = path or {"python": "m.py", "cython": "m.pyx"}.get(language, f"m.{language}")
    return reference_lines(language, path, text).lines


def marked(source: str) -> list[int]:
    """The lines a fixture marks with ``SITE`` in a comment."""
    return [n for n, line in enumerate(textwrap.dedent(source).splitlines(), 1) if "SITE" in line]


PYTHON = """\
import warnings
from warnings import warn as w
def f(x):
    if x:
        raise ValueError("bad")  # SITE
    try:
        g()
    except KeyError as e:
        raise e
    except OSError:
        raise
    assert x
    assert x, "needs x"  # SITE
    warnings.warn("old")  # SITE
    w("older")  # SITE
    other.warn("not a warning")
"""


def test_python() -> None:
    assert lines_of("python", PYTHON) == marked(PYTHON)


CYTHON = """\
include "helpers.pxi"
import warnings
cdef int f(int x) except -1:
    if x < 0:
        raise ValueError("neg %d" % x)  # SITE
    assert x, "msg"  # SITE
    try:
        pass
    except KeyError as e:
        raise e
    warnings.warn("careful")  # SITE
    return 0
"""


def test_cython() -> None:
    assert lines_of("cython", CYTHON) == marked(CYTHON)


C = """\
static PyObject *f(PyObject *self, PyObject *arg) {
    if (!PyLong_Check(arg)) {
        PyErr_SetString(PyExc_TypeError, "an int is required");  // SITE
        return NULL;
    }
    PyErr_Format(PyExc_ValueError, "bad %R", arg);  // SITE
    PyErr_SetNone(PyExc_KeyError);  // SITE
    PyErr_WarnEx(PyExc_DeprecationWarning, "old", 1);  // SITE
    PyErr_Clear();
    return NULL;
}
"""


def test_c() -> None:
    assert lines_of("c", C) == marked(C)


CPP = """\
void f(int x) {
    if (x < 0) throw std::invalid_argument("negative");  // SITE
    try { g(); } catch (const std::exception& e) { throw e; }
    try { g(); } catch (...) { throw; }
    pybind11::pybind11_fail("unreachable");  // SITE
    nb::raise_type_error("bad type %s", name);  // SITE
    auto s = absl::InvalidArgumentError(absl::StrCat("bad ", x));  // SITE
    absl::StrCat("not a site");
}
"""


def test_cpp() -> None:
    assert lines_of("cpp", CPP, "m.cc") == marked(CPP)


JS = """\
function f(req, res) {
  if (!req.ok) throw new TypeError("bad request");  // SITE
  try { g(); } catch (e) { throw e; }
  console.error("failed");  // SITE
  console.warn(`slow ${req.id}`);  // SITE
  console.log("fine");
  res.status(404).send("missing");  // SITE
  res.status(code);
}
"""


def test_javascript_and_typescript() -> None:
    assert lines_of("javascript", JS, "m.js") == marked(JS)
    typed = JS.replace("function f(req, res)", "function f(req: Req, res: Res): void")
    assert lines_of("typescript", typed, "m.ts") == marked(JS)
    assert lines_of("typescript", typed, "m.tsx") == marked(JS)


GO = """\
package p

import (
	"errors"
	"fmt"
	"log"
	"net/http"
)

func f(w http.ResponseWriter, x int, err error) error {
	if x < 0 {
		return errors.New("negative")  // SITE
	}
	if x == 0 {
		panic("zero")  // SITE
	}
	http.Error(w, "bad", 400)  // SITE
	log.Fatalf("no %d", x)  // SITE
	log.Printf("fine")
	return fmt.Errorf("wrapped: %w", err)  // SITE
}
"""


def test_go() -> None:
    assert lines_of("go", GO) == marked(GO)


RUST = """\
#[derive(Debug, Error)]
enum E {
    #[error("bad value {0}")]  // SITE
    Bad(i32),
}
fn f(x: i32) -> Result<()> {
    assert!(x > 0, "x must be positive, got {}", x);  // SITE
    assert!(x > 0);  // SITE
    assert_eq!(x, 1);  // SITE
    assert_ne!(x, 2, "not two");  // SITE
    let v = opt.expect("a value");  // SITE
    anyhow::bail!("stop");  // SITE
    unreachable!();  // SITE
    println!("fine");
    Ok(())
}
"""


def test_rust() -> None:
    assert lines_of("rust", RUST, "m.rs") == marked(RUST)


RUST_CHAINS_AND_TESTS = """\
fn parse(s: &str) -> u32 {
    s.trim()
        .parse()
        .expect("a number")  // SITE
}
#[cfg(test)]
mod tests {
    fn helper() { panic!("in a test module"); }
}
#[cfg(all(test, feature = "slow"))]
fn slow() { panic!("tests only"); }
#[cfg(any(test, feature = "testing"))]
pub fn support() { panic!("a feature reaches it"); }  // SITE
#[cfg(not(test))]
fn real() { panic!("not under test"); }  // SITE
#[test]
fn t() { assert!(parse("1") == 1, "one"); }
#[tokio::test]
async fn t2() { unreachable!(); }
mod inner {
    #![cfg(test)]
    fn h() { todo!(); }
}
"""


def test_rust_expect_is_at_the_method_name_and_test_code_is_left_out() -> None:
    """rustc's Location of a method call is its name's (rust-lang/rust#73182); items that
    only ``cargo test`` compiles are not counted."""
    assert lines_of("rust", RUST_CHAINS_AND_TESTS, "m.rs") == marked(RUST_CHAINS_AND_TESTS)


def test_rust_file_under_inner_cfg_test_has_no_sites() -> None:
    source = '#![cfg(test)]\nuse super::*;\nfn helper() { panic!("x"); }\n'
    assert lines_of("rust", source, "src/test.rs") == []
    assert lines_of("rust", source.replace("#![cfg(test)]", "#![cfg(unix)]"), "a.rs") == [3]


JAVA = """\
class A {
    void f(String s) throws Exception {
        if (s == null) throw new IllegalArgumentException("null");  // SITE
        try { g(); } catch (java.io.IOException e) { throw e; }
        Objects.requireNonNull(s, "s");  // SITE
        Preconditions.checkArgument(s.isEmpty(), "empty");  // SITE
        checkState(ok);  // SITE
        throw failure();  // SITE
    }
}
"""


def test_java() -> None:
    assert lines_of("java", JAVA, "A.java") == marked(JAVA)


JAVA_OWN_HELPERS = """\
import static java.util.Objects.requireNonNull;
class Range {
    void readObject() throws java.io.InvalidObjectException {
        SerializationUtils.requireNonNull(max, "maximum null");
        com.google.common.base.Preconditions.checkArgument(ok, "not ok");  // SITE
        requireNonNull(min, "min");  // SITE
    }
}
class Breaker {
    boolean checkState() { return open; }
    boolean incrementAndCheckState() { return checkState(); }
    static Object checkNotNull(Object o) {
        if (o == null) throw new NullPointerException("o");  // SITE
        return o;
    }
    void use() { checkNotNull(this); }
}
"""


def test_java_calls_of_a_librarys_own_helpers_are_not_the_checked_api() -> None:
    """commons-lang's ``SerializationUtils.requireNonNull`` and ``checkState()`` share
    names with Objects' and Guava's: their sites are the ``throw`` written in them."""
    assert lines_of("java", JAVA_OWN_HELPERS, "Range.java") == marked(JAVA_OWN_HELPERS)


def test_a_file_that_does_not_parse_is_flagged_not_fatal() -> None:
    assert reference_lines("python", "m.py", "def (:\n").clean is False
    assert reference_lines("java", "A.java", "class { throw new }").clean is False
    parse_only("java", "A.java", "class A {}")  # the speed baseline parses the same way


def test_extract_languages_reports_recall_and_speed(tmp_path: Path) -> None:
    root = tmp_path / "tree"
    (root / "src" / "main" / "java" / "a").mkdir(parents=True)
    (root / "src" / "main" / "java" / "a" / "A.java").write_text(textwrap.dedent(JAVA))
    (root / "src" / "test" / "java").mkdir(parents=True)
    (root / "src" / "test" / "java" / "ATest.java").write_text(textwrap.dedent(JAVA))
    (root / "m.py").write_text(textwrap.dedent(PYTHON))
    (root / "m.go").write_text(textwrap.dedent(GO))
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1] / "src")}
    done = subprocess.run(
        [sys.executable, str(BENCH / "extract_languages.py"), "--root", str(root)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    java = len(marked(JAVA))
    assert f"java: 1 files, {len(JAVA.splitlines())} lines, {java} reference sites" in out
    # errdex's Java extractor catalogues every JDK/Guava site here except the
    # statically imported checkState it cannot resolve without the import
    assert f"recall {java - 1}/{java}" in out
    assert "src/main/java/a/A.java:7  checkState(ok);" in out
    assert "python: 1 files" in out and f"recall {len(marked(PYTHON))}/" in out
    go = len(marked(GO))
    assert "go: 1 files" in out and f"recall {go}/{go}" in out
    assert "beside the bare parse" in out
