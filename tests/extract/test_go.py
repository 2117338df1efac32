"""The Go extractor on small real-looking files, and on a real Go library from Debian."""

from __future__ import annotations

import os
import shutil
import subprocess
import textwrap
from functools import cache
from pathlib import Path

import pytest

from errdex.extract.go import extract
from errdex.extract.registry import ExtractError, extractor_for, is_test_file
from errdex.extract.site import ErrorSite


def sites(code: str, path: str = "pkg/file.go") -> list[ErrorSite]:
    text = textwrap.dedent(code)
    return extract(text, path, text.splitlines())


def by_line(found: list[ErrorSite]) -> dict[int, ErrorSite]:
    return {s.line: s for s in found}


@cache
def _installed(package: str) -> bool:
    if shutil.which("dpkg-query") is None:
        return False
    done = subprocess.run(
        ["dpkg-query", "-W", "-f=${Status}", package], capture_output=True, text=True, check=False
    )
    return done.returncode == 0 and "install ok installed" in done.stdout


def require_debian(*packages: str) -> None:
    """Install Debian packages the test reads (as root), or skip when that cannot be done."""
    missing = [p for p in packages if not _installed(p)]
    if not missing:
        return
    if shutil.which("apt-get") is None or os.geteuid() != 0:
        pytest.skip(f"needs Debian's {', '.join(missing)}: not installed and not root to install")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    command = ["apt-get", "install", "-y", "-q", *missing]
    if subprocess.run(command, env=env, capture_output=True, check=False).returncode != 0:
        subprocess.run(["apt-get", "update", "-q"], env=env, capture_output=True, check=False)
        subprocess.run(command, env=env, capture_output=True, check=True)
    _installed.cache_clear()


def test_registered_for_go_files_with_go_test_files_left_out() -> None:
    found = extractor_for("cmd/main.go")
    assert found is not None and found.language == "go"
    assert is_test_file("flag_test.go") and not is_test_file("flag.go")


def test_errors_new_with_guards_and_the_method_qualname() -> None:
    (site,) = sites(
        """\
        package store

        import "errors"

        func (s *Store) Get(key string) (string, error) {
            if key == "" {
                return "", errors.New("store: empty key")
            }
            return s.m[key], nil
        }
        """
    )
    assert (site.line, site.kind, site.language) == (7, "raise", "go")
    assert site.template.display == "store: empty key"
    assert (site.error_class, site.qualified_class) == ("*errors.errorString",) * 2
    assert (site.qualname, site.function) == ("store.(*Store).Get", "Get")
    assert [(g.kind, g.text) for g in site.guards] == [("if", 'key == ""')]


def test_errorf_verbs_are_holes_named_by_their_arguments_and_w_is_the_cause() -> None:
    found = by_line(
        sites(
            """\
            package cfg

            import (
                "fmt"
                "os"
            )

            func Load(path string, n int) error {
                f, err := os.Open(path)
                if err != nil {
                    return fmt.Errorf("cfg: open %q: %w", path, err)
                }
                if n < 0 {
                    return fmt.Errorf("cfg: %d%% of %[1]v is %-8s", n, f.Name())
                }
                return fmt.Errorf("both %w and %w", err, os.ErrClosed)
            }
            """
        )
    )
    wrapped = found[11]
    assert wrapped.template.display == "cfg: open %q: %w"
    assert [h.name for h in wrapped.template.holes] == ["path", "err"]
    assert (wrapped.error_class, wrapped.cause) == ("*fmt.wrapError", "err")
    assert wrapped.template.match('cfg: open "/etc/x": open /etc/x: no such file') == {
        "path": '"/etc/x"',
        "err": "open /etc/x: no such file",
    }
    plain = found[14]
    assert plain.error_class == "*errors.errorString" and plain.cause is None
    assert plain.template.match("cfg: 50% of 50 is abc     ") == {
        "n": "50",
        "f.Name()": "abc     ",
    }
    assert [h.text for h in plain.template.holes] == ["%d", "%[1]v", "%-8s"]
    assert [h.name for h in plain.template.holes] == ["n", "n", "f.Name()"]
    assert (found[16].error_class, found[16].cause) == ("*fmt.wrapErrors", "err, os.ErrClosed")


def test_panics_read_their_message_through_sprintf_and_a_local_variable() -> None:
    found = by_line(
        sites(
            """\
            package flags

            import "fmt"

            func (f *FlagSet) AddFlag(name string, short string) {
                if f.has(name) {
                    msg := fmt.Sprintf("%s flag redefined: %s", f.name, name)
                    fmt.Println(msg)
                    panic(msg)
                }
                if len(short) > 1 {
                    msg := fmt.Sprintf("%q shorthand is more than one ASCII character", short)
                    panic(msg)
                }
                panic("flags: " + name + " is " + fmt.Sprint(3))
            }

            func must(err error) {
                if err != nil {
                    panic(err)
                }
            }
            """
        )
    )
    first, second, third, bare = found[9], found[13], found[15], found[20]
    assert {s.kind for s in found.values()} == {"panic"}
    assert {s.error_type for s in found.values()} == {"panic"}
    assert {s.error_class for s in found.values()} == {"panic"}
    assert first.template.display == "%s flag redefined: %s"  # the value of msg, in its block
    assert second.template.display == "%q shorthand is more than one ASCII character"
    assert third.template.display == "flags: {name} is {3}"
    assert bare.template.display == "{err}" and bare.template.is_opaque
    assert bare.qualname == "flags.must"


def test_http_error_records_the_status_its_constant_names() -> None:
    found = sites(
        """\
        package api

        import "net/http"

        func handle(w http.ResponseWriter, r *http.Request) {
            switch r.Method {
            case http.MethodGet:
                http.Error(w, "api: missing id", http.StatusBadRequest)
            default:
                http.Error(w, "api: method not allowed", 405)
            }
            http.Error(w, "api: "+r.URL.Path+" failed", code(r))
        }
        """
    )
    assert [(s.template.display, s.http_status, s.error_type) for s in found] == [
        ("api: missing id", 400, "http"),
        ("api: method not allowed", 405, "http"),
        ("api: {r.URL.Path} failed", None, "http"),
    ]
    assert [(g.kind, g.text) for g in found[0].guards] == [("case", "r.Method is http.MethodGet")]
    assert found[1].guards[0].text == "r.Method matches no other case"
    assert "decided at run time" in found[2].notes[0]


def test_log_fatal_and_log_panic() -> None:
    found = sites(
        """\
        package main

        import "log"

        func main() {
            log.Fatalf("main: cannot listen on %s: %v", addr, err)
            log.Fatal("main: ", err)
            log.Panicln("main: giving up after", n, "tries")
        }
        """
    )
    fatalf, fatal, panicln = found
    assert (fatalf.kind, fatalf.error_type, fatalf.severity) == ("log", "console", "critical")
    assert fatalf.template.display == "main: cannot listen on %s: %v"
    assert fatal.template.display == "main: {err}"
    assert (panicln.kind, panicln.error_class) == ("panic", "panic")
    assert panicln.template.display == "main: giving up after {n} tries"


def test_package_level_sentinels_are_named_by_their_variable() -> None:
    found = sites(
        """\
        package io

        import "errors"

        var ErrShortWrite = errors.New("short write")

        var (
            errInvalidWrite  = errors.New("invalid write result")
            ErrUnexpectedEOF = errors.New("unexpected EOF")
        )

        func f() error {
            var local = errors.New("not a sentinel")
            return local
        }
        """
    )
    assert [(s.error_class, s.template.display, s.style) for s in found] == [
        ("io.ErrShortWrite", "short write", "sentinel"),
        ("io.errInvalidWrite", "invalid write result", "sentinel"),
        ("io.ErrUnexpectedEOF", "unexpected EOF", "sentinel"),
        ("*errors.errorString", "not a sentinel", "errors.New"),
    ]
    assert found[2].qualname == "io.ErrUnexpectedEOF"


def test_error_methods_give_their_type_as_the_class() -> None:
    found = sites(
        """\
        package fs

        import "fmt"

        type PathError struct{ Op, Path string; Err error }

        func (e *PathError) Error() string { return e.Op + " " + e.Path + ": " + e.Err.Error() }

        type Code int

        func (c Code) Error() string {
            if c == 0 {
                return "fs: no error"
            }
            return fmt.Sprintf("fs: code %d", int(c))
        }

        type wrapped struct{ msg string }

        func (w wrapped) Error() string { return w.msg }

        func (e *PathError) Unwrap() error { return e.Err }
        """
    )
    assert [(s.line, s.error_class, s.qualified_class, s.template.display) for s in found] == [
        (7, "*PathError", "*fs.PathError", "{e.Op} {e.Path}: {e.Err.Error()}"),
        (13, "Code", "fs.Code", "fs: no error"),
        (15, "Code", "fs.Code", "fs: code %d"),
    ]  # ``return w.msg`` has no text of its own: the message is made elsewhere
    assert found[1].guards[0].text == "c == 0"
    assert found[2].template.holes[0].name == "int(c)"


def test_closures_are_named_as_go_names_them() -> None:
    found = sites(
        """\
        package run

        import "errors"

        func Start() {
            go func() {}()
            defer func() {
                if r := recover(); r != nil {
                    func() { panic(errors.New("run: nested")) }()
                }
            }()
            for _, job := range jobs {
                _ = job
                panic("run: in loop")
            }
        }
        """
    )
    nested, looped = found
    assert nested.qualname == "run.Start.func2.1"
    assert nested.template.display == "run: nested"  # panic(errors.New(…)) is one site
    assert [(g.kind, g.text) for g in looped.guards] == [("for", "for _, job := range jobs")]


def test_pkg_errors_under_an_alias_and_its_wrapping() -> None:
    found = sites(
        """\
        package db

        import (
            pkgerrors "github.com/pkg/errors"
            "errors"
        )

        func open(name string) error {
            if err := dial(name); err != nil {
                return pkgerrors.Wrapf(err, "db: dial %s", name)
            }
            if name == "x" {
                return pkgerrors.New("db: reserved name")
            }
            return errors.New("db: std")
        }
        """
    )
    wrapf, new, std = found
    assert wrapf.template.display == "db: dial %s: {err}"
    assert (wrapf.error_class, wrapf.cause) == ("*errors.withStack", "err")
    assert wrapf.template.match("db: dial x: connection refused") == {
        "name": "x",
        "err": "connection refused",
    }
    assert new.error_class == "*errors.fundamental"
    assert std.error_class == "*errors.errorString"


def test_string_literals_are_decoded_exactly() -> None:
    (site, raw, const) = sites(
        """\
        package s

        import "errors"

        const prefix = "s: "

        var a = errors.New("tab\\there \\"q\\" \\x41\\u00e9\\101 100%")
        var b = errors.New(`raw \\n stays`)

        func f() error { return errors.New(prefix + "from a constant") }
        """
    )
    assert site.template.display == 'tab\there "q" Aé\x41 100%'
    assert raw.template.display == "raw \\n stays"
    assert const.template.display == "s: from a constant"


def test_a_file_without_a_package_clause_is_refused_and_a_broken_one_still_read() -> None:
    with pytest.raises(ExtractError, match="no package clause"):
        sites('func f() { panic("x") }\n')
    (site,) = sites('package p\n\nfunc f() { panic("p: broken") \n\nfunc g( {\n')
    assert site.template.display == "p: broken"
    assert any("recovered from a syntax error" in n for n in site.notes)


GOCODE = Path("/usr/share/gocode/src")


def test_a_real_go_library_scanned_end_to_end(tmp_path: Path) -> None:
    """spf13/pflag as Debian ships it: every record read through the scan, tests left out."""
    require_debian("golang-github-spf13-pflag-dev")
    from errdex.scan import scan_checkout
    from errdex.source import open_source

    root = GOCODE / "github.com/spf13/pflag"
    checkout = open_source(str(root), repo="spf13/pflag")
    result = scan_checkout(checkout, repo="spf13/pflag")
    records = [r for r, _ in result.items]
    assert records and not any(r["filePath"].endswith("_test.go") for r in records)
    assert {e["site"]["language"] for _, e in result.items} == {"go"}
    by_message = {r["errorMessage"]: r for r in records}
    redefined = by_message["%s flag redefined: %s"]
    assert (redefined["filePath"], redefined["errorType"], redefined["errorClass"]) == (
        "flag.go",
        "panic",
        "panic",
    )
    source_line = (root / "flag.go").read_text().splitlines()[redefined["lineNumber"] - 1]
    assert source_line.strip().startswith("panic(msg)")
    assert by_message["pflag: help requested"]["errorClass"] == "pflag.ErrHelp"
    go_files = [p for p in root.glob("*.go") if not p.name.endswith("_test.go")]
    assert len({r["filePath"] for r in records}) <= len(go_files)
    assert not result.skipped


def test_calls_of_a_printf_wrapper_around_errorf_are_sites() -> None:
    found = sites(
        """\
        package flags

        import "fmt"

        func (f *FlagSet) failf(format string, a ...interface{}) error {
            err := fmt.Errorf(format, a...)
            f.usage()
            return err
        }

        func (f *FlagSet) parse(name string) error {
            if !f.known(name) {
                return f.failf("unknown flag: --%s", name)
            }
            return logf("not a wrapper: %s", name)
        }

        func logf(format string, a ...interface{}) error { return nil }
        """
    )
    assert [(s.line, s.template.display, s.style) for s in found] == [
        (6, "{format}", "fmt.Errorf"),
        (13, "unknown flag: --%s", "printf wrapper"),
    ]
    assert found[1].error_class == "*errors.errorString"
    assert found[1].qualname == "flags.(*FlagSet).parse"


def test_pkg_errors_from_debian_its_one_message_of_its_own() -> None:
    """github.com/pkg/errors builds messages for others; the one it writes itself is
    ``withMessage``'s ``msg: cause`` (its fundamental errors print the caller's text)."""
    require_debian("golang-github-pkg-errors-dev")
    from errdex.scan import scan_checkout
    from errdex.source import open_source

    root = GOCODE / "github.com/pkg/errors"
    result = scan_checkout(open_source(str(root), repo="pkg/errors"), repo="pkg/errors")
    records = [r for r, _ in result.items]
    assert [(r["filePath"], r["errorClass"], r["errorMessage"]) for r in records] == [
        ("errors.go", "*withMessage", "{w.msg}: {w.cause.Error()}")
    ]
    line = (root / "errors.go").read_text().splitlines()[records[0]["lineNumber"] - 1]
    assert "return w.msg" in line


def test_testdata_folders_are_not_scanned(tmp_path: Path) -> None:
    """``testdata/`` holds a package's test inputs (the go tool never builds it): a scan
    leaves it out as it leaves out ``_test.go`` files."""
    from errdex.scan import scan_checkout
    from errdex.source import open_source

    code = 'package p\n\nimport "errors"\n\nvar ErrBad = errors.New("bad")\n'
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "p.go").write_text(code)
    (tmp_path / "p" / "testdata" / "golden").mkdir(parents=True)
    (tmp_path / "p" / "testdata" / "golden" / "input.go").write_text(code)
    result = scan_checkout(open_source(str(tmp_path), repo="x/p"), repo="x/p")
    assert [r["filePath"] for r, _ in result.items] == ["p/p.go"]
