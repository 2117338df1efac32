"""Go and Rust traces: parsed strictly, and real panics provoked at run time matched back.

The provoked panics come from real libraries as Debian ships them (spf13/pflag for Go,
smallvec and serde-xml-rs for Rust), built offline: Go in GOPATH mode over
``/usr/share/gocode``, cargo with Debian's ``/usr/share/cargo/registry`` as its
crates.io. The Debian packages are installed by :func:`require_debian` when missing
(as root; the tests skip, saying why, otherwise).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import textwrap
from pathlib import Path

import pytest

from errdex.match import foreign
from errdex.match.api import answers, errors_in
from errdex.match.traces import go, rust
from errdex.scan import scan_checkout, store_scan
from errdex.source import open_source
from errdex.store import SqliteStore
from tests.extract.test_go import require_debian

GO_PANIC = """\
panic: pflag: demo flag redefined: name

goroutine 1 [running]:
github.com/spf13/pflag.(*FlagSet).AddFlag(0xc000088100, 0xc000000320)
\t/root/go/pkg/mod/github.com/spf13/pflag@v1.0.5/flag.go:855 +0x626
github.com/spf13/pflag.(*FlagSet).VarP(...)
\t/root/go/pkg/mod/github.com/spf13/pflag@v1.0.5/flag.go:844
main.main.func1()
\t/home/u/demo/main.go:12 +0x12a
created by main.main in goroutine 1
\t/home/u/demo/main.go:10 +0x25
exit status 2
"""


def test_parsers_are_registered() -> None:
    assert "errdex.match.traces.go" in foreign.TRACE_PARSERS
    assert "errdex.match.traces.rust" in foreign.TRACE_PARSERS
    (error,) = errors_in(GO_PANIC)
    assert error.source_format == go.FORMAT


def test_go_panic_frames_outermost_first_with_the_module_cache_cut() -> None:
    (error,) = go.parse(GO_PANIC)
    assert (error.error_class, error.message, error.relation) == (
        None,
        "pflag: demo flag redefined: name",
        None,
    )
    assert [(f.path, f.line, f.function) for f in error.frames] == [
        ("/home/u/demo/main.go", 10, "main"),
        ("/home/u/demo/main.go", 12, "main"),
        ("flag.go", 844, "VarP"),
        ("flag.go", 855, "AddFlag"),
    ]


def test_go_runtime_errors_are_runtime_error_and_the_signal_line_is_no_message() -> None:
    text = textwrap.dedent(
        """\
        panic: runtime error: invalid memory address or nil pointer dereference
        [signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x47f1a2]

        goroutine 1 [running]:
        main.main()
        \t/tmp/x/main.go:7 +0x22
        """
    )
    (error,) = go.parse(text)
    assert error.error_class == "runtime.Error"
    assert error.message == "runtime error: invalid memory address or nil pointer dereference"
    index = "panic: runtime error: index out of range [5] with length 3\n\ngoroutine 1 [running]:\nmain.main()\n\t/tmp/x/main.go:9 +0x1d\n"
    (error,) = go.parse(index)
    assert error.message == "runtime error: index out of range [5] with length 3"


def test_go_recovered_panic_that_panics_again_is_read_as_its_context() -> None:
    text = (
        "panic: db: closed [recovered]\n"
        "\tpanic: db: closed\n\n"
        "goroutine 7 [running]:\n"
        "testing.tRunner.func1.2({0x5d1f20, 0xc00009c060})\n"
        "\t/usr/local/go/src/testing/testing.go:1545 +0x238\n"
        "panic({0x5d1f20?, 0xc00009c060?})\n"
        "\t/usr/lib/go-1.21/src/runtime/panic.go:914 +0x21f\n"
        "example.com/db.(*DB).Query(...)\n"
        "\texample.com/db@v0.3.1/db.go:40 +0x1d\n"
    )
    first, final = go.parse(text)
    assert (first.message, first.relation, first.frames) == ("db: closed", "context", [])
    assert (final.message, final.relation) == ("db: closed", None)
    assert [(f.path, f.line) for f in final.frames] == [
        ("db.go", 40),  # a -trimpath build's module path cut
        ("src/runtime/panic.go", 914),  # golang/go's own path
        ("src/testing/testing.go", 1545),  # innermost: printed first, read last
    ]
    repanicked = text.replace("[recovered]", "[recovered, repanicked]")
    assert go.parse(repanicked)[0].message == "db: closed"


def test_go_fatal_errors_and_gopath_vendor_paths() -> None:
    text = (
        "fatal error: all goroutines are asleep - deadlock!\n\n"
        "goroutine 1 [chan receive]:\n"
        "main.main()\n"
        "\t/home/u/go/src/github.com/o/app/vendor/github.com/x/y/z/wait.go:8 +0x2d\n"
    )
    (error,) = go.parse(text)
    assert error.message == "all goroutines are asleep - deadlock!"
    assert error.frames[0].path == "z/wait.go"
    assert go.frame_path("/home/u/go/src/github.com/o/app/cmd/main.go") == "cmd/main.go"


@pytest.mark.parametrize(
    "text",
    [
        'Traceback (most recent call last):\n  File "m.py", line 1, in <module>\nValueError: panic: no\n',
        "panic: the disk is full\n",  # a line of prose, no goroutine trace
        "panic: x\n\ngoroutine 1 [running]:\nnot a frame\n",
        "I said panic: now, goroutine 1 [running]: is just text\n",
    ],
)
def test_go_parser_answers_only_for_go_traces(text: str) -> None:
    assert go.parse(text) == []


RUST_PANIC = """\
thread 'main' (31337) panicked at /home/u/.cargo/registry/src/index.crates.io-6f17d22bba15001f/smallvec-1.13.2/src/lib.rs:1084:17:
index exceeds length
stack backtrace:
   0: __rustc::rust_begin_unwind
             at /rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/std/src/panicking.rs:689:5
   1: core::panicking::panic
             at /rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/core/src/panicking.rs:150:5
   2: smallvec::SmallVec<A>::insert
             at /home/u/.cargo/registry/src/index.crates.io-6f17d22bba15001f/smallvec-1.13.2/src/lib.rs:1084:17
   3: demo::main::{{closure}}
             at ./src/main.rs:7:23
   4: core::ops::function::FnOnce::call_once
             at /rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/core/src/ops/function.rs:250:5
note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace.
"""


def test_rust_panic_with_its_backtrace_cut_to_repository_paths() -> None:
    (error,) = rust.parse(RUST_PANIC)
    assert (error.error_class, error.message) == (None, "index exceeds length")
    assert [(f.path, f.line, f.function) for f in error.frames] == [
        ("library/core/src/ops/function.rs", 250, "call_once"),
        ("src/main.rs", 7, "main"),
        ("src/lib.rs", 1084, "insert"),  # the panic machinery inside it left out
    ]


def test_rust_before_1_73_and_multi_line_messages() -> None:
    old = (
        "thread 'main' panicked at 'assertion failed: `(left == right)`\n"
        "  left: `1`,\n right: `2`', src/main.rs:2:5\n"
        "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n"
    )
    (error,) = rust.parse(old)
    assert error.message == "assertion failed: `(left == right)`\n  left: `1`,\n right: `2`"
    assert [(f.path, f.line) for f in error.frames] == [("src/main.rs", 2)]
    new = (
        "thread '<unnamed>' panicked at /usr/share/cargo/registry/rayon-core-1.10.1/src/lib.rs:9:5:\n"
        "assertion `left == right` failed: sizes\n  left: 1\n right: 2\n"
        "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n"
    )
    (error,) = rust.parse(new)
    assert error.message == "assertion `left == right` failed: sizes\n  left: 1\n right: 2"
    assert error.frames[-1].path == "src/lib.rs"


def test_anyhow_reports_are_a_chain_with_the_context_last() -> None:
    text = (
        "Error: reading config\n\nCaused by:\n"
        "    0: opening /etc/x.toml\n"
        "    1: No such file or directory (os error 2)\n"
    )
    deepest, middle, top = rust.parse(text)
    assert (top.message, top.relation) == ("reading config", None)
    assert (middle.message, middle.relation) == ("opening /etc/x.toml", "cause")
    assert deepest.message == "No such file or directory (os error 2)"
    single = "Error: Syntax: 1:21 end of stream\n\nCaused by:\n    1:21 end of stream\n"
    assert [e.message for e in rust.parse(single)] == [
        "1:21 end of stream",
        "Syntax: 1:21 end of stream",
    ]


@pytest.mark.parametrize(
    "text",
    [
        'Traceback (most recent call last):\n  File "m.py", line 1, in <module>\nValueError: bad\n',
        "the thread panicked at noon\n",
        "Error: something went wrong\n",  # no Caused by: prose as much as anyhow
        "thread 'main' panicked at the sight of it\n",
    ],
)
def test_rust_parser_answers_only_for_rust_traces(text: str) -> None:
    assert rust.parse(text) == []


# -- real panics, provoked ---------------------------------------------------------------

GOCODE = Path("/usr/share/gocode/src")
REGISTRY = Path("/usr/share/cargo/registry")

GO_PROGRAM = """\
package main

import (
	"os"

	"github.com/spf13/pflag"
)

func main() {
	fs := pflag.NewFlagSet("demo", pflag.PanicOnError)
	switch os.Args[1] {
	case "redefine":
		fs.String("name", "", "usage")
		fs.String("name", "", "usage")
	case "shorthand":
		fs.StringP("name", "nn", "", "usage")
	case "reshorthand":
		fs.StringP("name", "n", "", "usage")
		fs.StringP("other", "n", "", "usage")
	case "unknown":
		fs.Parse([]string{"--bogus"})
	}
}
"""

RUST_PROGRAM = """\
use smallvec::SmallVec;

#[derive(Debug, serde::Deserialize)]
struct Item {
    name: String,
}

fn main() -> anyhow::Result<()> {
    let mut v: SmallVec<[u8; 4]> = SmallVec::new();
    v.push(1);
    match std::env::args().nth(1).unwrap_or_default().as_str() {
        "insert" => v.insert(5, 2),
        "remove" => {
            v.remove(3);
        }
        "drain" => {
            v.drain(0..9);
        }
        _ => {
            let item: Item = serde_xml_rs::from_str("<item><name>x</name>")?;
            println!("{}", item.name);
        }
    }
    Ok(())
}
"""

CARGO_TOML = """\
[package]
name = "provoke"
version = "0.1.0"
edition = "2021"

[dependencies]
smallvec = "1"
serde-xml-rs = "0.5"
anyhow = "1"
serde = { version = "1", features = ["derive"] }
"""

CARGO_CONFIG = f"""\
[source.crates-io]
replace-with = "debian"

[source.debian]
directory = "{REGISTRY}"
"""


def _tool(name: str, *more: Path) -> str:
    found = shutil.which(name) or next((str(p) for p in more if p.exists()), None)
    if found is None:
        require_debian({"go": "golang-go", "cargo": "cargo"}[name])
        found = shutil.which(name) or next((str(p) for p in more if p.exists()), None)
    if found is None:
        pytest.skip(f"no {name} on this machine")
    return found


def _line_of(path: Path, marker: str, statement: str) -> int:
    """The first line at or after ``marker``'s whose code starts with ``statement``."""
    lines = path.read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if marker in line)
    return next(i for i in range(start, len(lines)) if lines[i].strip().startswith(statement)) + 1


def _store(db: Path, root: Path, repo: str) -> None:
    checkout = open_source(str(root), repo=repo)
    result = scan_checkout(checkout, repo=repo)
    with SqliteStore(db) as store:
        store_scan(store, checkout, repo, result, "2026-12-01T00:00:00.000Z")


GO_CASES = ("redefine", "shorthand", "reshorthand", "unknown")
RUST_CASES = (("insert", "1"), ("remove", "0"), ("drain", "0"), ("xml", "0"))


def provoke_go(work: Path, go_bin: str) -> dict[str, str]:
    """Build the Go program against Debian's pflag offline and run each case: its stderr."""
    (work / "main.go").write_text(GO_PROGRAM)
    env = {
        **os.environ,
        "GOPATH": str(GOCODE.parent),
        "GO111MODULE": "off",
        "GOFLAGS": "",
        "GOCACHE": str(work / "cache"),
        "GOTOOLCHAIN": "local",
    }
    subprocess.run(
        [go_bin, "build", "-o", str(work / "demo"), "main.go"], cwd=work, env=env, check=True
    )
    out = {}
    for case in GO_CASES:
        done = subprocess.run(
            [str(work / "demo"), case], capture_output=True, text=True, check=False
        )
        assert done.returncode == 2, done.stderr
        out[case] = done.stderr
    return out


def provoke_rust(work: Path, cargo: str) -> dict[str, str]:
    """Build the Rust program against Debian's crates offline and run each case: its stderr."""
    (work / "src").mkdir()
    (work / ".cargo").mkdir()
    (work / "Cargo.toml").write_text(CARGO_TOML)
    (work / ".cargo/config.toml").write_text(CARGO_CONFIG)
    (work / "src/main.rs").write_text(RUST_PROGRAM)
    env = {**os.environ, "CARGO_TARGET_DIR": str(work / "target")}
    subprocess.run([cargo, "build", "--offline", "-q"], cwd=work, env=env, check=True)
    out = {}
    for case, backtrace in RUST_CASES:
        run_env = {**os.environ, "RUST_BACKTRACE": backtrace}
        done = subprocess.run(
            [str(work / "target/debug/provoke"), case],
            capture_output=True,
            text=True,
            check=False,
            env=run_env,
        )
        assert done.returncode != 0, done.stderr
        out[case] = done.stderr
    return out


def go_tool() -> str:
    require_debian("golang-go", "golang-github-spf13-pflag-dev")
    return _tool("go", Path("/usr/lib/go/bin/go"))


def cargo_tool() -> str:
    require_debian("librust-smallvec-dev", "librust-serde-xml-rs-dev", "librust-anyhow-dev")
    return _tool("cargo", Path.home() / ".cargo/bin/cargo")


@pytest.fixture(scope="module")
def go_panics(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    return provoke_go(tmp_path_factory.mktemp("go"), go_tool())


@pytest.fixture(scope="module")
def rust_panics(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    return provoke_rust(tmp_path_factory.mktemp("rust"), cargo_tool())


def build_catalogue(db: Path) -> Path:
    """pflag, smallvec and serde-xml-rs as Debian ships them, scanned into ``db``."""
    if (GOCODE / "github.com/spf13/pflag").is_dir():
        _store(db, GOCODE / "github.com/spf13/pflag", "spf13/pflag")
    for crate, repo in (
        ("smallvec-1.", "servo/rust-smallvec"),
        ("serde-xml-rs-", "RReverser/serde-xml-rs"),
    ):
        found = sorted(REGISTRY.glob(crate + "*"))
        if found:
            _store(db, found[-1], repo)
    return db


def expected_sites() -> dict[str, tuple[str, str, int]]:
    """Each provoked case's site (repo, path, line), found in the source by its text."""
    flag_go = GOCODE / "github.com/spf13/pflag/flag.go"
    lib = sorted(REGISTRY.glob("smallvec-1.*"))[-1] / "src/lib.rs"
    error_rs = sorted(REGISTRY.glob("serde-xml-rs-*"))[-1] / "src/error.rs"
    pflag, smallvec = ("spf13/pflag", "flag.go"), ("servo/rust-smallvec", "src/lib.rs")
    return {
        "redefine": (*pflag, _line_of(flag_go, "flag redefined: %s", "panic(msg)")),
        "shorthand": (*pflag, _line_of(flag_go, "shorthand is more than one ASCII", "panic(msg)")),
        "reshorthand": (*pflag, _line_of(flag_go, "unable to redefine %q shorthand", "panic(msg)")),
        "unknown": (*pflag, _line_of(flag_go, 'failf("unknown flag: --%s"', "err = f.failf")),
        "insert": (*smallvec, _line_of(lib, "pub fn insert(", 'panic!("index exceeds length")')),
        "remove": (*smallvec, _line_of(lib, "pub fn remove(", "assert!(index < len)")),
        "drain": (*smallvec, _line_of(lib, "pub fn drain<", "assert!(end <= len)")),
        "xml": (
            "RReverser/serde-xml-rs",
            "src/error.rs",
            _line_of(error_rs, '#[error("Syntax: {source}")]', "#[error("),
        ),
    }


@pytest.fixture(scope="module")
def catalogue(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_catalogue(tmp_path_factory.mktemp("catalogue") / "errdex.db")


def _top(text: str, db: Path) -> tuple[str, str, int, float]:
    final = answers(text, db)[-1]
    assert final.candidates, (final.status, text)
    best = final.candidates[0]
    return best.repo, best.filePath, best.lineNumber, best.confidence


def test_provoked_go_panics_are_matched_to_their_pflag_site(
    go_panics: dict[str, str], catalogue: Path
) -> None:
    expected = expected_sites()
    for case in ("redefine", "shorthand", "reshorthand"):
        repo, path, line, confidence = _top(go_panics[case], catalogue)
        assert (repo, path, line) == expected[case], go_panics[case]
        assert confidence >= 0.5


def test_a_go_panic_of_a_returned_error_finds_where_its_message_was_made(
    go_panics: dict[str, str], catalogue: Path
) -> None:
    """``panic(err)`` in pflag's Parse: the message was made by ``f.failf("unknown flag: …")``;
    both sites are offered (the ``panic(err)`` site, at the innermost frame, first)."""
    flag_go = GOCODE / "github.com/spf13/pflag/flag.go"
    made = expected_sites()["unknown"][2]
    panicked = _line_of(flag_go, "func (f *FlagSet) Parse(", "panic(err)")
    final = answers(go_panics["unknown"], catalogue)[-1]
    lines = [(c.filePath, c.lineNumber) for c in final.candidates]
    assert ("flag.go", made) in lines and ("flag.go", panicked) in lines


def test_provoked_rust_panics_are_matched_to_their_crate_site(
    rust_panics: dict[str, str], catalogue: Path
) -> None:
    expected = expected_sites()
    for case in ("insert", "remove", "drain"):
        repo, path, line, confidence = _top(rust_panics[case], catalogue)
        assert (repo, path, line) == expected[case], rust_panics[case]
        assert confidence >= 0.5
    assert "stack backtrace:" in rust_panics["insert"]


def test_a_provoked_anyhow_report_finds_the_thiserror_message(
    rust_panics: dict[str, str], catalogue: Path
) -> None:
    assert "Caused by:" in rust_panics["xml"]
    repo, path, line, _ = _top(rust_panics["xml"], catalogue)
    assert (repo, path, line) == expected_sites()["xml"]
