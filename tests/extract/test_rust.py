"""The Rust extractor on small real-looking files, and on real crates from Debian."""

from __future__ import annotations

import textwrap
from pathlib import Path

from errdex.extract.registry import extractor_for
from errdex.extract.rust import extract
from errdex.extract.rust.scope import file_module
from errdex.extract.site import ErrorSite
from tests.extract.test_go import require_debian


def sites(code: str, path: str = "src/stack.rs") -> list[ErrorSite]:
    text = textwrap.dedent(code)
    return extract(text, path, text.splitlines())


def shown(found: list[ErrorSite]) -> list[tuple[int, str, str | None, str]]:
    return [(s.line, s.kind, s.error_class, s.template.display) for s in found]


def test_registered_for_rust_files() -> None:
    found = extractor_for("src/lib.rs")
    assert found is not None and found.language == "rust"


def test_panic_macros_and_their_format_arguments() -> None:
    found = sites(
        """\
        impl<T: Clone> Stack<T> {
            pub fn pop(&mut self, depth: usize) -> T {
                if self.items.is_empty() {
                    panic!("pop from an empty stack of depth {}", depth);
                } else if depth > 9 {
                    std::panic!("depth {depth} over {max:>4}: {:?} {{literal}}", self.items, max = 9);
                }
                match self.mode {
                    Mode::Frozen if depth > 0 => unreachable!("frozen at {}", depth),
                    Mode::Lazy => todo!(),
                    _ => unimplemented!("mode {:?}", self.mode),
                }
            }
        }
        """
    )
    assert shown(found) == [
        (4, "panic", "panic", "pop from an empty stack of depth {}"),
        (6, "panic", "panic", "depth {depth} over {max:>4}: {:?} {literal}"),
        (9, "panic", "panic", "internal error: entered unreachable code: frozen at {}"),
        (10, "panic", "panic", "not yet implemented"),
        (11, "panic", "panic", "not implemented: mode {:?}"),
    ]
    first, inline = found[0], found[1]
    assert (first.qualname, first.function, first.language) == ("stack::Stack::pop", "pop", "rust")
    assert (first.error_type, first.severity) == ("panic", "critical")
    assert [h.name for h in first.template.holes] == ["depth"]
    assert [h.name for h in inline.template.holes] == ["depth", "max", "self.items"]
    assert inline.template.match("depth 12 over    9: [1, 2] {literal}") == {
        "depth": "12",
        "max": "   9",
        "self.items": "[1, 2]",
    }
    assert [(g.kind, g.text) for g in first.guards] == [("if", "self.items.is_empty()")]
    assert [(g.kind, g.text) for g in inline.guards] == [
        ("else", "!(self.items.is_empty())"),
        ("if", "depth > 9"),
    ]
    assert found[2].guards[-1].text == "self.mode matches Mode::Frozen if depth > 0"


def test_escapes_and_raw_strings_in_a_token_tree_are_read_exactly() -> None:
    found = sites(
        """\
        fn f() {
            panic!("tab\\there \\"q\\" \\u{e9}\\x41 \\
                    continued");
            panic!(r#"raw "{}" \\n"#, 1);
            panic!();
        }
        """
    )
    assert [s.template.display for s in found] == [
        'tab\there "q" éA continued',
        'raw "{}" \\n',
        "explicit panic",
    ]


def test_asserts_print_as_the_standard_library_prints_them() -> None:
    found = sites(
        """\
        fn check(a: &[u8], b: &[u8]) {
            assert!(a.len()  ==  b.len());
            assert!(!a.is_empty(), "empty input of {} bytes", b.len());
            assert_eq!(a[0], b[0]);
            debug_assert_ne!(a, b, "same {name}");
        }
        """
    )
    assert [s.kind for s in found] == ["assert"] * 4
    assert [s.template.display for s in found] == [
        "assertion failed: a.len() == b.len()",
        "empty input of {} bytes",
        "assertion `left == right` failed\n  left: {:?}\n right: {:?}",
        "assertion `left != right` failed: same {name}\n  left: {:?}\n right: {:?}",
    ]
    assert found[2].template.match("assertion `left == right` failed\n  left: 1\n right: 2") == {
        "a[0]": "1",
        "b[0]": "2",
    }


def test_expect_prints_the_message_then_the_error_unless_the_receiver_is_an_option() -> None:
    found = sites(
        """\
        fn load(path: &str) -> Config {
            let text = std::fs::read_to_string(path)
                .expect("config file unreadable");
            let first = text.lines().next().expect("config file is empty");
            let n: u32 = first.parse().expect_err("a number");
            toml::from_str(&text).expect(&format!("bad config {}", path))
        }
        """
    )
    assert shown(found) == [
        (3, "panic", "panic", "config file unreadable: {:?}"),
        (4, "panic", "panic", "config file is empty"),
        (5, "panic", "panic", "a number: {:?}"),
        (6, "panic", "panic", '{&format!("bad config {}", path)}: {:?}'),
    ]
    assert found[0].template.match(
        'config file unreadable: Os { code: 2, kind: NotFound, message: "No such file" }'
    ) == {"error": 'Os { code: 2, kind: NotFound, message: "No such file" }'}
    assert "Option::expect" in found[1].notes[0]


def test_a_name_bound_to_an_option_expects_with_the_message_alone() -> None:
    """rustc prints ``owner thread`` alone for ``None.expect("owner thread")``; the
    names below are bound as rayon-core, rayon and gimli bind them."""
    found = sites(
        """\
        fn wait(owner: Option<&WorkerThread>, r: Result<u8, E>) {
            let owner = owner.expect("owner thread");
            let mut result = None;
            let v = result.expect("unzip consumers didn't execute!");
            let text: Option<String> = read();
            text.expect("no text");
            r.expect("r failed");
            let owner = 3u8;
            owner.expect("shadowed by a u8");
        }
        """
    )
    assert [t for _, _, _, t in shown(found)] == [
        "owner thread",
        "unzip consumers didn't execute!",
        "no text",
        "r failed: {:?}",
        "shadowed by a u8: {:?}",
    ]
    assert found[0].template.match("owner thread") == {}


def test_anyhow_macros_and_context() -> None:
    found = sites(
        """\
        use anyhow::{bail, ensure, Context, Result};

        fn run(n: i64, path: &Path) -> Result<()> {
            ensure!(n >= 0, "n must be positive, got {}", n);
            ensure!(n < 100);
            let data = std::fs::read(path).context("reading the input")?;
            let _ = parse(&data).with_context(|| format!("parsing {}", path.display()))?;
            if data.is_empty() {
                bail!("{} is empty", path.display());
            }
            Err(anyhow::anyhow!("unreachable state {n}"))
        }
        """
    )
    assert shown(found) == [
        (4, "raise", "anyhow::Error", "n must be positive, got {}"),
        (5, "raise", "anyhow::Error", "Condition failed: `n < 100`"),
        (6, "raise", "anyhow::Error", "reading the input"),
        (9, "raise", "anyhow::Error", "{} is empty"),
        (11, "raise", "anyhow::Error", "unreachable state {n}"),
    ]
    assert found[3].guards[0].text == "data.is_empty()"


def test_thiserror_messages_on_variants_and_structs() -> None:
    found = sites(
        """\
        use thiserror::Error;

        #[derive(Error, Debug)]
        pub enum DataStoreError {
            #[error("data store disconnected")]
            Disconnect(#[from] io::Error),
            /// The key is redacted.
            #[error("the data for key `{0}` is not available")]
            Redaction(String),
            #[error("invalid header (expected {expected:?}, found {found:?})")]
            InvalidHeader { expected: String, found: String },
            #[error(transparent)]
            Other(#[from] anyhow::Error),
        }

        #[derive(Error, Debug)]
        #[error("bad byte {}", .0)]
        pub struct BadByte(u8);
        """,
        path="src/store/error.rs",
    )
    assert shown(found) == [
        (5, "raise", "DataStoreError::Disconnect", "data store disconnected"),
        (8, "raise", "DataStoreError::Redaction", "the data for key `{0}` is not available"),
        (
            10,
            "raise",
            "DataStoreError::InvalidHeader",
            "invalid header (expected {expected:?}, found {found:?})",
        ),
        (17, "raise", "BadByte", "bad byte {}"),
    ]
    assert [h.name for h in found[2].template.holes] == ["expected", "found"]
    assert found[3].template.holes[0].name == ".0"


def test_io_errors() -> None:
    found = sites(
        """\
        use std::io::{self, Error, ErrorKind};

        fn open(p: &Path) -> io::Result<File> {
            if !p.exists() {
                return Err(io::Error::new(ErrorKind::NotFound, format!("no file {}", p.display())));
            }
            if p.is_dir() {
                return Err(Error::new(io::ErrorKind::InvalidInput, "is a directory".to_string()));
            }
            Err(std::io::Error::other(String::from("boom")))
        }
        """
    )
    assert shown(found) == [
        (5, "raise", "io::Error", "no file {}"),
        (8, "raise", "io::Error", "is a directory"),
        (10, "raise", "io::Error", "boom"),
    ]
    assert found[0].notes == ["ErrorKind::NotFound"] and found[2].notes == ["ErrorKind::Other"]
    assert found[0].qualified_class == "std::io::Error"


def test_a_crates_own_error_type_is_not_io_error() -> None:
    """cc declares its own ``Error`` and ``ErrorKind``: ``Error::new(ErrorKind::IOError, …)``
    there is cc's error, not ``std::io::Error``; without an import ``Error`` is not io's."""
    own = sites(
        """\
        use std::io::{self, BufRead};
        enum ErrorKind { IOError, ToolNotFound }
        pub struct Error { kind: ErrorKind, message: String }
        fn f() -> Result<(), Error> {
            Err(Error::new(ErrorKind::IOError, "Getting object file details failed."))
        }
        fn g() -> io::Result<()> {
            Err(io::Error::new(io::ErrorKind::Other, "no OUT_DIR"))
        }
        """
    )
    assert shown(own) == [(8, "raise", "io::Error", "no OUT_DIR")]
    unimported = sites('fn f() { Err(Error::new(ErrorKind::Other, "x")) }\n')
    assert unimported == []


def test_test_code_is_left_out() -> None:
    found = sites(
        """\
        pub fn real() { panic!("real code"); }

        #[cfg(test)]
        mod tests {
            #[test]
            fn t() { panic!("in a test module"); }
        }

        #[test]
        fn loose() { panic!("a test outside the module"); }

        #[cfg(all(test, feature = "x"))]
        mod more { fn f() { panic!("test only"); } }

        #[cfg(not(test))]
        fn shipped() { panic!("not a test"); }
        """
    )
    assert [s.template.display for s in found] == ["real code", "not a test"]


def test_a_file_or_module_marked_cfg_test_of_itself_is_test_code() -> None:
    """rayon's ``src/iter/collect/test.rs`` opens with ``#![cfg(test)]``; its helpers
    without ``#[test]`` are test code too."""
    whole_file = sites('#![cfg(test)]\n\nfn helper() { panic!("helper"); }\n', "src/test.rs")
    assert whole_file == []
    found = sites(
        """\
        //! A module.
        #![cfg_attr(docsrs, feature(doc_cfg))]
        pub fn real() { panic!("real code"); }
        mod checks {
            // only under test
            #![cfg(test)]
            fn helper() { panic!("helper"); }
        }
        """
    )
    assert [s.template.display for s in found] == ["real code"]


def test_closures_loops_and_let_else_as_guards() -> None:
    found = sites(
        """\
        fn f(items: Vec<u8>, o: Option<u8>) {
            let Some(v) = o else { panic!("no value") };
            for item in items.iter() {
                while *item > v {
                    loop {
                        let g = || panic!("in closure");
                    }
                }
            }
        }
        """,
        path="src/main.rs",
    )
    no_value, closure = found
    assert [(g.kind, g.text) for g in no_value.guards] == [("else", "o does not match Some(v)")]
    assert closure.qualname == "f::{{closure}}" and closure.guards == ()
    assert file_module("src/main.rs") == "" and file_module("src/de/mod.rs") == "de"
    assert file_module("crates/a/src/x/y.rs") == "x::y"


REGISTRY = Path("/usr/share/cargo/registry")


def _scan(root: Path, repo: str) -> list[tuple[dict[str, object], dict[str, object]]]:
    from errdex.scan import scan_checkout
    from errdex.source import open_source

    result = scan_checkout(open_source(str(root), repo=repo), repo=repo)
    assert not result.skipped
    return [(r, e) for r, e in result.items]


def test_real_crates_scanned_end_to_end() -> None:
    """smallvec (asserts and panics) and serde-xml-rs (thiserror) as Debian ships them."""
    require_debian("librust-smallvec-dev", "librust-serde-xml-rs-dev")
    smallvec = next(REGISTRY.glob("smallvec-1.*"))
    items = _scan(smallvec, "servo/rust-smallvec")
    assert {e["site"]["language"] for _, e in items} == {"rust"}  # type: ignore[index]
    by_message = {r["errorMessage"]: r for r, _ in items}
    insert = by_message["index exceeds length"]
    assert (insert["filePath"], insert["errorType"]) == ("src/lib.rs", "panic")
    line = (smallvec / "src/lib.rs").read_text().splitlines()[int(insert["lineNumber"]) - 1]  # type: ignore[call-overload]
    assert 'panic!("index exceeds length")' in line
    assert "assertion failed: index < len" in by_message
    text = (smallvec / "src/lib.rs").read_text()
    assert not any("#[cfg(test)]" in text.splitlines()[int(r["lineNumber"]) - 2] for r, _ in items)  # type: ignore[call-overload]

    xml = next(REGISTRY.glob("serde-xml-rs-*"))
    classes = {r["errorClass"] for r, _ in _scan(xml, "RReverser/serde-xml-rs")}
    assert any(isinstance(c, str) and c.startswith("Error::") for c in classes), classes


def test_only_a_cfg_that_requires_test_marks_test_code() -> None:
    """ahash's ``cfg(all(feature = …, not(all(…, test))))`` is shipped code, not a test."""
    found = sites(
        """\
        #[cfg(all(feature = "runtime-rng", not(all(feature = "compile-time-rng", test))))]
        fn seeds() { getrandom(&mut r).expect("getrandom::getrandom() failed."); }

        #[cfg(any(test, feature = "std"))]
        fn either() { panic!("built without tests too"); }

        #[cfg(all(feature = "std", any(test, test)))]
        fn only_tests() { panic!("only in tests"); }
        """
    )
    assert [s.template.display for s in found] == [
        "getrandom::getrandom() failed.: {:?}",
        "built without tests too",
    ]


def test_eyre_macros_make_an_eyre_report() -> None:
    found = sites(
        """\
        use eyre::{bail, eyre, Result};

        fn f(n: u8) -> Result<()> {
            if n == 0 {
                bail!("n is zero");
            }
            Err(eyre!("n is {}", n))
        }
        """
    )
    assert shown(found) == [
        (5, "raise", "eyre::Report", "n is zero"),
        (7, "raise", "eyre::Report", "n is {}"),
    ]


def test_cargo_benches_and_examples_are_not_scanned(tmp_path: Path) -> None:
    """Cargo builds ``benches/`` and ``examples/`` only for ``cargo bench``/``--example``:
    not the library a user's panic comes from."""
    from errdex.scan import scan_checkout
    from errdex.source import open_source

    code = 'pub fn f() { panic!("boom"); }\n'
    for rel in ("src/lib.rs", "benches/bench.rs", "examples/demo.rs", "tests/it.rs"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(code)
    result = scan_checkout(open_source(str(tmp_path), repo="x/c"), repo="x/c")
    assert [r["filePath"] for r, _ in result.items] == ["src/lib.rs"]
