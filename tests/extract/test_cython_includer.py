"""An included Cython file is read as part of the module that includes it (msgpack's shape:
``_cmsgpack.pyx`` includes ``_packer.pyx`` and ``_unpacker.pyx`` and builds the one
extension ``msgpack._cmsgpack``)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from errdex.extract.cython import extract_cython
from errdex.extract.python.project import reading_repository

INCLUDER = 'include "_packer.pyx"\ninclude "_unpacker.pyx"\n'
UNPACKER = textwrap.dedent(
    """\
    include "_helpers.pxi"

    class BufferFull(Exception):
        pass

    cdef class Unpacker:
        def __init__(self, object_hook=None, object_pairs_hook=None):
            if object_hook is not None and object_pairs_hook is not None:
                raise TypeError("object_pairs_hook and object_hook are mutually exclusive.")

        def feed(self, data):
            raise BufferFull("buffer is full")
    """
)
HELPERS = 'cdef check(x):\n    if x < 0:\n        raise ValueError("negative")\n'


def _tree(root: Path, includer: str = INCLUDER) -> Path:
    (root / "msgpack").mkdir(parents=True)
    (root / "msgpack" / "_cmsgpack.pyx").write_text(includer)
    (root / "msgpack" / "_unpacker.pyx").write_text(UNPACKER)
    (root / "msgpack" / "_helpers.pxi").write_text(HELPERS)
    (root / "msgpack" / "_other.pyx").write_text("def f():\n    pass\n")
    return root


def test_an_included_file_is_read_as_the_including_module(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    with reading_repository(root) as project:
        sites = extract_cython(UNPACKER, "msgpack/_unpacker.pyx")
        read = project.files_read("msgpack/_unpacker.pyx")
    found = [(s.line, s.qualname, s.qualified_class, s.module) for s in sites]
    assert found == [
        (9, "msgpack._cmsgpack.Unpacker.__init__", "builtins.TypeError", "msgpack._cmsgpack"),
        (
            12,
            "msgpack._cmsgpack.Unpacker.feed",
            "msgpack._cmsgpack.BufferFull",
            "msgpack._cmsgpack",
        ),
    ]
    assert sites[0].evidence()["module"] == "msgpack._cmsgpack"
    # the scan cache learns the file's sites depend on the Cython files looked at
    assert {"msgpack/_cmsgpack.pyx", "msgpack/_other.pyx"} <= read


def test_a_file_included_by_an_included_file_is_the_outermost_module(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    with reading_repository(root):
        (site,) = extract_cython(HELPERS, "msgpack/_helpers.pxi")
    assert (site.qualname, site.module) == ("msgpack._cmsgpack.check", "msgpack._cmsgpack")


def test_a_file_nobody_includes_or_read_alone_keeps_its_own_module(tmp_path: Path) -> None:
    alone = extract_cython(UNPACKER, "msgpack/_unpacker.pyx")
    assert {(s.qualname.rsplit(".", 2)[0], s.module) for s in alone} == {
        ("msgpack._unpacker", None)
    }
    assert "module" not in alone[0].evidence()
    root = _tree(tmp_path, 'include "_packer.pyx"\n')
    with reading_repository(root):
        sites = extract_cython(UNPACKER, "msgpack/_unpacker.pyx")
    assert next((s.qualname, s.module) for s in sites) == (
        "msgpack._unpacker.Unpacker.__init__",
        None,
    )


def test_a_template_is_included_by_the_name_it_renders(tmp_path: Path) -> None:
    """``hashtable.pyx`` includes ``hashtable_class_helper.pxi``, which the build renders
    from ``hashtable_class_helper.pxi.in``: the template's sites are that module's."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "hashtable.pyx").write_text('include "hashtable_class_helper.pxi"\n')
    template = '{{py:\nnames = ["Int64"]\n}}\n{{for name in names}}\ncdef class {{name}}Table:\n    def get(self, key):\n        raise KeyError(key)\n{{endfor}}\n'
    (tmp_path / "pkg" / "hashtable_class_helper.pxi.in").write_text(template)
    with reading_repository(tmp_path):
        sites = extract_cython(template, "pkg/hashtable_class_helper.pxi.in")
    assert [(s.qualname, s.module) for s in sites] == [
        ("pkg.hashtable.Int64Table.get", "pkg.hashtable")
    ]


def test_an_included_file_still_reads_its_imports_relative_to_its_own_path(
    tmp_path: Path,
) -> None:
    """msgpack's ``raise ExtraData(obj, extra)`` in the included ``_unpacker.pyx``: the
    class's ``__str__`` in the sibling ``exceptions.py`` still gives the message."""
    pkg = tmp_path / "msgpack"
    pkg.mkdir()
    (pkg / "exceptions.py").write_text(
        "class ExtraData(ValueError):\n    def __init__(self, unpacked, extra):\n"
        "        self.unpacked = unpacked\n\n    def __str__(self):\n"
        '        return "unpack(b) received extra data."\n'
    )
    (pkg / "_cmsgpack.pyx").write_text(INCLUDER)
    source = "from .exceptions import ExtraData\n\ndef unpackb(packed):\n    raise ExtraData(packed, 1)\n"
    (pkg / "_unpacker.pyx").write_text(source)
    with reading_repository(tmp_path):
        (site,) = extract_cython(source, "msgpack/_unpacker.pyx")
    assert site.template.display == "unpack(b) received extra data."
    assert (site.qualified_class, site.qualname) == (
        "msgpack.exceptions.ExtraData",
        "msgpack._cmsgpack.unpackb",
    )


INNER = "cdef class T:\n    pass\n\ndef g(x):\n    return x\n"


def test_every_file_the_module_is_read_from_is_a_dependency(tmp_path: Path) -> None:
    """``a.pyx`` includes ``sub/t.pxi``, whose ``cdef class T`` types ``def f(T t)``: the
    scan cache must learn that ``a.pyx``'s sites depend on ``t.pxi`` (an edit there
    changes them)."""
    (tmp_path / "pkg" / "sub").mkdir(parents=True)
    outer = 'include "sub/t.pxi"\n\ndef f(T t):\n    return t\n'
    (tmp_path / "pkg" / "a.pyx").write_text(outer)
    (tmp_path / "pkg" / "sub" / "t.pxi").write_text(INNER)
    with reading_repository(tmp_path) as project:
        sites = extract_cython(outer, "pkg/a.pyx", arguments=True)
        read = project.files_read("pkg/a.pyx")
    assert "Argument 't' has incorrect type (expected pkg.a.T, got {type})" in {
        s.template.display for s in sites
    }
    assert "pkg/sub/t.pxi" in read


def test_an_included_files_argument_sites_are_the_including_module(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "b.pyx").write_text('include "t.pxi"\n')
    (tmp_path / "pkg" / "t.pxi").write_text(INNER)
    with reading_repository(tmp_path):
        sites = extract_cython(INNER, "pkg/t.pxi", arguments=True)
    assert sites and {(s.qualname, s.module) for s in sites} == {("pkg.b.g", "pkg.b")}


COMMON = (
    "cdef class T:\n    pass\n\n"
    'def check(x):\n    if x < 0:\n        raise ValueError("negative")\n    return x\n\n'
    "def typed(T t):\n    return t\n"
)


def _two_includers(root: Path) -> Path:
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "common.pxi").write_text(COMMON)
    for name in ("a", "b"):
        (root / "pkg" / f"{name}.pyx").write_text('include "common.pxi"\n')
    return root


def test_a_file_two_modules_include_builds_into_both(tmp_path: Path) -> None:
    """A build of ``a.pyx`` and ``b.pyx``, each including ``common.pxi`` (Cython 3.3.1):
    ``b.check(-1)`` prints ``File "pkg/common.pxi", line 6, in pkg.b.check``, and
    ``b.typed(1)`` ``Argument 't' has incorrect type (expected pkg.b.T, got int)``: the
    ``.pxi``'s sites are both modules', and a class of the module prints each one's."""
    with reading_repository(_two_includers(tmp_path)):
        sites = extract_cython(COMMON, "pkg/common.pxi", arguments=True)
    raised = next(s for s in sites if s.template.display == "negative")
    assert (raised.module, raised.also_modules) == ("pkg.a", ("pkg.b",))
    assert raised.evidence()["alsoModules"] == ["pkg.b"]
    typed = {
        (s.template.display, s.module, s.also_modules)
        for s in sites
        if s.template.display.startswith("Argument 't'")
    }
    assert typed == {
        ("Argument 't' has incorrect type (expected pkg.a.T, got {type})", "pkg.a", ()),
        ("Argument 't' has incorrect type (expected pkg.b.T, got {type})", "pkg.b", ()),
    }
    counts = [s for s in sites if s.template.display.startswith("typed() takes")]
    assert [(s.module, s.also_modules) for s in counts] == [("pkg.a", ("pkg.b",))]


def test_the_match_index_reads_the_file_as_both_modules(tmp_path: Path) -> None:
    """What the matcher asks of a compiled site (a shadowed twin's ``shadowedBy`` module,
    :func:`errdex.match.native._builds`) holds for either includer."""
    from errdex.match.index import MatchIndex
    from errdex.match.native import _builds
    from errdex.scan import scan_checkout, store_scan
    from errdex.source import open_source
    from errdex.store import SqliteStore

    root = _two_includers(tmp_path / "repo")
    checkout = open_source(str(root), repo="o/pkg", sha="3" * 40)
    db = tmp_path / "errdex.db"
    with SqliteStore(db) as store:
        store_scan(store, checkout, "o/pkg", scan_checkout(checkout, repo="o/pkg"), "2026-12-06")
        index = MatchIndex.build(store.iter_envelopes())
    (i,) = [k for k in range(len(index)) if index.entry(k).line == 6]
    assert index.compiled_into(i) == ("pkg.a", "pkg.b")
    assert _builds(index, i, "pkg.b") and not _builds(index, i, "pkg.c")
