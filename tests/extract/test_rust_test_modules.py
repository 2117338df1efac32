"""Out-of-line test modules (``#[cfg(test)] mod tests;``) of a crate, left out of a scan."""

from __future__ import annotations

from pathlib import Path

from errdex.extract.registry import declared_test_files
from errdex.extract.rust import parse
from errdex.extract.rust.test_modules import declared_test_paths
from errdex.source import iter_source_files, open_source
from tests.extract.test_go import require_debian
from tests.extract.test_rust import REGISTRY, _scan
from tests.source.helpers import write

LIB_RS = """\
//! A crate whose unit tests live in files of their own.
#![cfg_attr(docsrs, feature(doc_cfg))]

mod util;
pub mod de;
mod ser;

#[cfg(test)]
mod tests;

// quality checks, run by `cargo test` only
#[cfg(all(test, feature = "slow"))]
#[path = "quality_checks.rs"]
mod quality;

#[cfg(any(test, feature = "testing"))]
pub mod testing;

#[cfg(test)]
mod support {
    mod fakes;
}

#[cfg(not(test))]
mod helpers;

pub fn get(v: &[u8], i: usize) -> u8 {
    *v.get(i).expect("index in range")
}
"""

CRATE = {
    "src/lib.rs": LIB_RS,
    "src/util.rs": 'pub fn f() { panic!("util"); }\n',
    "src/de/mod.rs": '#[cfg(test)]\nmod test;\npub fn g() { panic!("de"); }\n',
    "src/de/test.rs": 'fn t() { assert_eq!(1, 2, "de test"); }\n',
    "src/ser.rs": '#[cfg(test)]\nmod checks;\npub fn h() { panic!("ser"); }\n',
    "src/ser/checks.rs": 'fn t() { panic!("ser checks"); }\n',
    "src/tests.rs": 'fn t() { panic!("unit tests"); }\n',
    "src/quality_checks.rs": 'fn t() { panic!("quality"); }\n',
    "src/testing.rs": 'pub fn fake() { panic!("a feature of its own"); }\n',
    "src/support/fakes.rs": 'fn t() { panic!("fakes"); }\n',
    "src/helpers.rs": '#![cfg(all(test, feature = "x"))]\nmod inner;\nfn f() { panic!("h"); }\n',
    "src/helpers/inner.rs": 'fn t() { panic!("inner of a test-only file"); }\n',
}


#: The files of CRATE that only ``cargo test`` compiles, by the declarations above.
TEST_FILES = (
    *("src/de/test.rs", "src/ser/checks.rs", "src/tests.rs", "src/quality_checks.rs"),
    *("src/support/fakes.rs", "src/helpers/inner.rs"),
)


def _crate(root: Path) -> Path:
    for rel, text in CRATE.items():
        write(root, rel, text)
    return root


def test_where_the_declared_test_modules_of_a_file_live() -> None:
    found = declared_test_paths(parse(LIB_RS.encode()), "src/lib.rs")
    assert found == [
        *("src/tests.rs", "src/tests/mod.rs", "src/tests/"),
        "src/quality_checks.rs",
        *("src/support/fakes.rs", "src/support/fakes/mod.rs", "src/support/fakes/"),
    ]
    # a file that is not lib.rs/main.rs/mod.rs declares modules in a folder of its name
    assert declared_test_paths(parse(b"#[cfg(test)]\nmod checks;\n"), "crate/src/ser.rs") == [
        *("crate/src/ser/checks.rs", "crate/src/ser/checks/mod.rs", "crate/src/ser/checks/"),
    ]
    # every ``mod x;`` of a file that is test code of itself is a test module
    inner = declared_test_paths(parse(CRATE["src/helpers.rs"].encode()), "src/helpers.rs")
    assert inner[0] == "src/helpers/inner.rs"


def test_a_path_attribute_is_read_from_the_declaring_files_folder() -> None:
    code = b'#[cfg(test)]\n#[path = "../checks/unit.rs"]\nmod unit;\n'
    assert declared_test_paths(parse(code), "src/de/mod.rs") == ["src/checks/unit.rs"]


def test_declared_test_files_among_the_listed(tmp_path: Path) -> None:
    root = _crate(tmp_path)
    assert declared_test_files(root, sorted(CRATE)) == set(TEST_FILES)


def test_a_scan_leaves_declared_test_modules_out(tmp_path: Path) -> None:
    root = _crate(tmp_path)
    checkout = open_source(str(root), repo="acme/crate")
    listing = iter_source_files(checkout, suffixes=(".rs",), declared_tests=declared_test_files)
    assert "src/tests.rs" not in listing.files and "src/testing.rs" in listing.files
    assert listing.excluded == len(TEST_FILES)
    messages = {r["errorMessage"] for r, _ in _scan(root, "acme/crate")}
    assert messages == {"util", "de", "ser", "a feature of its own", "index in range"}
    # naming the files to scan re-admits them, as it re-admits a tests/ folder
    named = iter_source_files(
        checkout, include=["src/**"], suffixes=(".rs",), declared_tests=declared_test_files
    )
    assert "src/tests.rs" in named.files


def test_smallvecs_unit_tests_file_is_left_out() -> None:
    """smallvec's ``src/lib.rs`` says ``#[cfg(test)] mod tests;``: the 183 lines that
    assert or panic in its ``src/tests.rs`` are not the library's errors."""
    require_debian("librust-smallvec-dev")
    smallvec = next(REGISTRY.glob("smallvec-1.*"))
    files = {r["filePath"] for r, _ in _scan(smallvec, "servo/rust-smallvec")}
    assert "src/lib.rs" in files and "src/tests.rs" not in files
