"""The Cython extractor on small files written the way Cython libraries write them."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from errdex.extract.cython import cython_module_name, extract_cython
from errdex.extract.python import extract_python
from errdex.extract.registry import ExtractError, extractor_for, is_test_file
from errdex.extract.site import ErrorSite

UNPACKER = """\
import warnings
from .exceptions import ExtraData, FormatError
cimport cython
from libc.stdlib cimport malloc

cdef class Unpacker:
    cdef Py_ssize_t max_buffer_size

    def __init__(self, Py_ssize_t read_size=0, Py_ssize_t max_buffer_size=0):
        if read_size > max_buffer_size:
            raise ValueError("read_size should be less or equal to max_buffer_size")
        elif read_size == 0:
            raise TypeError(f"read_size must be positive, got {read_size!r}")
        else:
            assert max_buffer_size > 1, "need a buffer of %d bytes" % max_buffer_size

    cdef int _feed(self, char* buf, Py_ssize_t n) except -1:
        cdef str msg = "buffer of %d bytes" % n
        if n > self.max_buffer_size:
            msg += " is full"
            raise BufferError(msg)
        try:
            self._grow(n)
        except MemoryError as exc:
            raise RuntimeError("cannot grow to {} bytes".format(n)) from exc
        except KeyError:
            raise
        return 0

    cpdef unpack(self):
        for i in range(3):
            while i < 2:
                warnings.warn("unpacking %s twice" % i, DeprecationWarning)
        for i from 0 <= i < 10:
            raise FormatError
        raise ExtraData("unpack(b) received extra data: " + repr(<object>self))

    property buffer_size:
        def __get__(self):
            raise AttributeError("buffer_size is write-only")


cdef inline char* _name(object o) nogil:
    with gil:
        raise ValueError, "old-style raise"


def unpackb(packed, *, object_hook=None):
    if object_hook is not None and not callable(object_hook):
        raise TypeError("object_hook must be a callable.")
    PyErr_Format(TypeError, b"can not serialize '%.200s' object of size %zd", name, size)
    raise ValueError("Unpack failed: error = %d" % (<int>ret,))
"""


def _sites(text: str, path: str = "msgpack/_unpacker.pyx") -> list[ErrorSite]:
    return extract_cython(textwrap.dedent(text), path)


def _line(text: str, needle: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if needle in line)


def _at(sites: list[ErrorSite], line: int) -> ErrorSite:
    (site,) = [s for s in sites if s.line == line]
    return site


@pytest.fixture(scope="module")
def unpacker() -> list[ErrorSite]:
    return extract_cython(UNPACKER, "msgpack/_unpacker.pyx")


def test_every_raise_warn_assert_and_c_api_call_is_a_site(unpacker: list[ErrorSite]) -> None:
    # one site per raise with a value (the bare ``raise`` re-raises), assert, warn, PyErr_*
    expected = [
        _line(UNPACKER, needle)
        for needle in (
            "read_size should be",
            "read_size must be positive",
            "need a buffer of",
            "raise BufferError",
            "cannot grow to",
            "unpacking %s twice",
            "raise FormatError",
            "received extra data",
            "buffer_size is write-only",
            "old-style raise",
            "object_hook must be",
            "PyErr_Format",
            "Unpack failed",
        )
    ]
    assert [s.line for s in unpacker] == expected
    assert {s.language for s in unpacker} == {"cython"}


def test_message_forms_read_as_in_python(unpacker: list[ErrorSite]) -> None:
    shown = {s.line: (s.error_class, s.template.display, s.style) for s in unpacker}
    line = lambda needle: _line(UNPACKER, needle)  # noqa: E731
    assert shown[line("read_size should be")] == (
        "ValueError",
        "read_size should be less or equal to max_buffer_size",
        "literal",
    )
    assert shown[line("read_size must be")] == (
        "TypeError",
        "read_size must be positive, got {read_size!r}",
        "fstring",
    )
    assert shown[line("need a buffer")][:2] == ("AssertionError", "need a buffer of %d bytes")
    # ``cdef str msg = …`` then ``msg += …``: the local's value is followed
    assert shown[line("raise BufferError")][:2] == ("BufferError", "buffer of %d bytes is full")
    assert shown[line("cannot grow")][:2] == ("RuntimeError", "cannot grow to {} bytes")
    # concatenation with a cast inside: the cast is Cython's, the hole the value
    assert shown[line("received extra data")][:2] == (
        "ExtraData",
        "unpack(b) received extra data: {repr(<object>self)}",
    )
    assert shown[line("Unpack failed")][:2] == ("ValueError", "Unpack failed: error = %d")


def test_holes_match_the_runtime_message(unpacker: list[ErrorSite]) -> None:
    import re

    site = _at(unpacker, _line(UNPACKER, "read_size must be"))
    assert re.search(site.template.pattern, "read_size must be positive, got 0")
    c_api = _at(unpacker, _line(UNPACKER, "PyErr_Format"))
    assert re.search(c_api.template.pattern, "can not serialize 'object' object of size 3")


def test_classes_are_qualified_through_imports(unpacker: list[ErrorSite]) -> None:
    extra = _at(unpacker, _line(UNPACKER, "received extra data"))
    assert extra.qualified_class == "msgpack.exceptions.ExtraData"
    bare = _at(unpacker, _line(UNPACKER, "raise FormatError"))
    assert (bare.error_class, bare.qualified_class, bare.template.is_empty) == (
        "FormatError",
        "msgpack.exceptions.FormatError",
        True,
    )
    assert _at(unpacker, _line(UNPACKER, "raise BufferError")).qualified_class == (
        "builtins.BufferError"
    )


def test_qualnames_are_what_cython_tracebacks_print(unpacker: list[ErrorSite]) -> None:
    names = {s.line: (s.qualname, s.function) for s in unpacker}
    line = lambda needle: _line(UNPACKER, needle)  # noqa: E731
    assert names[line("read_size should")] == ("msgpack._unpacker.Unpacker.__init__", "__init__")
    assert names[line("raise BufferError")] == ("msgpack._unpacker.Unpacker._feed", "_feed")
    assert names[line("raise FormatError")] == ("msgpack._unpacker.Unpacker.unpack", "unpack")
    assert names[line("write-only")][0] == "msgpack._unpacker.Unpacker.buffer_size.__get__"
    assert names[line("old-style")] == ("msgpack._unpacker._name", "_name")
    assert names[line("object_hook must")] == ("msgpack._unpacker.unpackb", "unpackb")


def test_guards_on_the_way(unpacker: list[ErrorSite]) -> None:
    def guards(needle: str) -> list[tuple[str, str]]:
        return [(g.kind, g.text) for g in _at(unpacker, _line(UNPACKER, needle)).guards]

    assert guards("read_size should") == [("if", "read_size > max_buffer_size")]
    assert guards("read_size must be") == [
        ("else", "read_size <= max_buffer_size"),
        ("elif", "read_size == 0"),
    ]
    assert guards("need a buffer") == [
        ("else", "read_size <= max_buffer_size"),
        ("else", "read_size != 0"),
        ("assert", "max_buffer_size <= 1"),
    ]
    assert guards("cannot grow") == [("except", "MemoryError was raised (as exc)")]
    assert guards("unpacking %s") == [("for", "for i in range(3)"), ("while", "i < 2")]
    assert guards("raise FormatError") == [("for", "for i from 0 <= i < 10")]
    assert guards("object_hook must") == [
        ("if", "object_hook is not None and not callable(object_hook)")
    ]
    assert _at(unpacker, _line(UNPACKER, "cannot grow")).cause == "exc"


def test_warnings_and_c_api_calls(unpacker: list[ErrorSite]) -> None:
    warn = _at(unpacker, _line(UNPACKER, "unpacking %s twice"))
    assert (warn.kind, warn.error_class, warn.error_type, warn.severity) == (
        "warn",
        "DeprecationWarning",
        "console",
        "warning",
    )
    assert warn.template.display == "unpacking %s twice"
    c_api = _at(unpacker, _line(UNPACKER, "PyErr_Format"))
    assert (c_api.kind, c_api.error_class, c_api.qualified_class) == (
        "set",
        "TypeError",
        "builtins.TypeError",
    )
    assert c_api.template.display == "can not serialize '%.200s' object of size %d"
    assert any("PyErr_Format" in note for note in c_api.notes)


def test_a_statement_that_is_not_python_is_read_from_cythons_tree(
    unpacker: list[ErrorSite],
) -> None:
    old = _at(unpacker, _line(UNPACKER, "old-style raise"))
    # ``raise E, V`` is read as the ``raise E(V)`` Cython compiles it to
    # (extract/cython/comma_raise.py): its message's style is the literal's
    assert (old.error_class, old.template.display, old.style) == (
        "ValueError",
        "old-style raise",
        "literal",
    )


def test_same_messages_as_the_python_extractor_for_python_syntax() -> None:
    code = textwrap.dedent(
        """\
        import warnings
        from .errors import ParseError

        class Reader:
            def read(self, n, kind):
                msg = "cannot read " + kind
                if n < 0:
                    msg += f" ({n} bytes)"
                    raise ValueError(msg)
                if kind not in ("a", "b"):
                    raise ParseError("unknown kind %r at %d" % (kind, n))
                warnings.warn("slow path: {}".format(kind), RuntimeWarning)
                raise KeyError(kind)
        """
    )

    def summary(sites: list[ErrorSite]) -> list[tuple[object, ...]]:
        return [
            (
                s.line,
                s.kind,
                s.error_class,
                s.qualified_class,
                s.template.display,
                s.style,
                s.qualname,
                [(g.kind, g.text, g.line) for g in s.guards],
            )
            for s in sites
        ]

    python = extract_python(code, "pkg/reader.py")
    cython = extract_cython(code, "pkg/reader.pyx")
    assert summary(cython) == summary(python)
    assert len(cython) == 4


def test_include_lines_keep_every_line_in_place() -> None:
    code = 'include "helpers.pxi"\n\ndef f(x):\n    include "more.pxi"\n    raise ValueError("after includes")\n'
    (site,) = extract_cython(code, "pkg/m.pyx")
    assert site.line == 5 and site.template.display == "after includes"


def test_a_pxd_with_inline_functions() -> None:
    code = textwrap.dedent(
        """\
        cdef class Buffer:
            cdef char* data
            cdef inline int check(self, Py_ssize_t n) except -1:
                if n < 0:
                    raise IndexError("negative index")
                return 0
        """
    )
    (site,) = extract_cython(code, "pkg/buffer.pxd")
    assert (site.qualname, site.line, site.template.display) == (
        "pkg.buffer.Buffer.check",
        5,
        "negative index",
    )


def test_a_file_cython_cannot_parse_is_refused_with_the_line() -> None:
    with pytest.raises(ExtractError, match="line 1"):
        extract_cython("def f(:\n    raise ValueError('x')\n", "pkg/bad.pyx")


def test_module_names_and_registry() -> None:
    assert cython_module_name("msgpack/_unpacker.pyx") == "msgpack._unpacker"
    assert cython_module_name("src/pkg/_x.pxi.in") == "pkg._x"
    for path in ("a/b.pyx", "a/b.pxd", "a/b.pxi", "a/b.pyx.in", "a/b.pxi.in", "a/b.pxd.in"):
        found = extractor_for(path)
        assert found is not None and found.language == "cython", path
    assert is_test_file("test_unpacker.pyx")
    assert not is_test_file("unpacker.pyx")


def test_casts_after_keywords_and_local_imports() -> None:
    code = textwrap.dedent(
        """\
        cdef _unregister(_Element proxy):
            cdef xmlNode* c_node = proxy._c_node
            assert c_node._private is <void*>proxy, "Tried to unregister unknown proxy"

        def find(self, path):
            if path[:1] == "/":
                from warnings import warn
                warn("This search incorrectly ignores the root element", FutureWarning)
        """
    )
    first, second = extract_cython(code, "lxml/proxy.pxi")
    assert (first.kind, first.line, first.template.display) == (
        "assert",
        3,
        "Tried to unregister unknown proxy",
    )
    assert first.guards[-1].text == "c_node._private is not <void*>proxy"
    assert (second.kind, second.error_class, second.line) == ("warn", "FutureWarning", 8)


def test_several_arguments_to_a_sibling_class_also_read_apart() -> None:
    """PyYAML's ``_yaml.pyx`` raises ``yaml.composer.ComposerError(context, mark, problem,
    mark)``, which prints its texts one per line with the marks between, not the tuple."""
    code = textwrap.dedent(
        """\
        from yaml.composer import ComposerError

        cdef class CParser:
            def get_single_node(self, document, mark):
                raise ComposerError(u"expected a single document in the stream",
                        document.start_mark, u"but found another document", mark)

            def compose_alias(self, mark):
                raise ComposerError(None, None, u"found undefined alias", mark)

            def check(self, n):
                raise ValueError("bad", n)
        """
    )
    sites = _sites(code, "yaml/_yaml.pyx")
    printed = {
        5: 'expected a single document in the stream\n  in "<unicode string>", line 1, column 1'
        '\nbut found another document\n  in "<unicode string>", line 2, column 1',
        9: 'found undefined alias\n  in "<unicode string>", line 1, column 4',
    }
    for line, message in printed.items():
        templates = [s.template for s in sites if s.line == line]
        assert any(t.match(message) is not None for t in templates), (line, templates)
        assert any(t.display.startswith("(") for t in templates)  # the tuple repr stays
    # a builtin prints the tuple: no alternative
    assert [s.template.display for s in sites if s.line == 12] == ["('bad', {n})"]


def test_a_class_of_a_sibling_python_module_prints_its_own_str(tmp_path: Path) -> None:
    """msgpack's ``raise ExtraData(obj, extra)`` in ``_unpacker.pyx``: ``ExtraData`` lives
    in ``exceptions.py`` (its base an alias, ``UnpackValueError = ValueError``) and its
    ``__str__`` returns the message, which is what the record must hold."""
    from errdex.extract.python.project import reading_repository

    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "exceptions.py").write_text(
        "UnpackValueError = ValueError\n\n\nclass ExtraData(UnpackValueError):\n"
        "    def __init__(self, unpacked, extra):\n        self.unpacked = unpacked\n"
        "        self.extra = extra\n\n    def __str__(self):\n"
        '        return "unpack(b) received extra data."\n'
    )
    source = (
        "from .exceptions import ExtraData\n\n"
        "def unpackb(object packed):\n    raise ExtraData(packed, packed[1:])\n"
    )
    with reading_repository(tmp_path):
        (site,) = extract_cython(source, "pkg/_unpacker.pyx")
    assert site.template.display == "unpack(b) received extra data."
    assert site.error_class == "ExtraData"


def test_a_helper_returning_one_of_several_exceptions_gives_each_class() -> None:
    """PyYAML's ``error = self._parser_error(); raise error``: the ``cdef`` method returns
    a different exception on each branch of an ``if`` chain; the raise is one site per
    class, and the helper's own ``raise`` stays its own site."""
    code = textwrap.dedent(
        """\
        from yaml.scanner import ScannerError
        from yaml.parser import ParserError

        cdef class CParser:
            cdef object _parser_error(self):
                if self.parser.error == YAML_MEMORY_ERROR:
                    return MemoryError
                elif self.parser.error == YAML_SCANNER_ERROR:
                    return ScannerError(self.context, None, self.problem, None)
                else:
                    return ParserError(self.context, None, self.problem, None)
                raise ValueError(u"no parser error")

            cdef int _parse_next_event(self) except 0:
                if yaml_parser_parse(&self.parser, &self.parsed_event) == 0:
                    error = self._parser_error()
                    raise error
                return 1
        """
    )
    sites = _sites(code, "yaml/_yaml.pyx")
    at_raise = {(s.error_class, s.qualified_class) for s in sites if s.line == 17}
    assert at_raise == {
        ("MemoryError", "builtins.MemoryError"),
        ("ScannerError", "yaml.scanner.ScannerError"),
        ("ParserError", "yaml.parser.ParserError"),
    }
    assert all(s.qualname == "yaml._yaml.CParser._parse_next_event" for s in sites if s.line == 17)
    assert [(s.line, s.error_class) for s in sites if s.line != 17] == [(12, "ValueError")]
    # libyaml's texts: no argument's text is known, so besides the tuple repr the
    # message is the one value ScannerError prints, which fits what the C library says
    scanner = [s.template for s in sites if s.line == 17 and s.error_class == "ScannerError"]
    printed = "while scanning for the next token\nfound character that cannot start any token"
    assert [len(t.holes) for t in scanner if t.match(printed) is not None] == [1]
    assert any(t.display.startswith("(") for t in scanner)


def test_a_module_level_alias_of_an_imported_class_is_qualified() -> None:
    """PyYAML's ``_yaml.pyx``: ``import yaml`` then ``SerializerError =
    yaml.serializer.SerializerError``; a raise of the alias names the imported class."""
    code = """\
        import yaml

        SerializerError = yaml.serializer.SerializerError
        ScannerError = make_error()

        cdef class CEmitter:
            def serialize(self, node):
                if self.closed == 1:
                    raise SerializerError(u"serializer is closed")
                raise ScannerError(u"not an alias")
        """
    sites = _sites(code, "yaml/_yaml.pyx")
    assert [(s.line, s.qualified_class) for s in sites] == [
        (9, "yaml.serializer.SerializerError"),
        (10, "ScannerError"),
    ]


def test_a_top_level_pyx_finds_its_package_under_lib(tmp_path: Path) -> None:
    """PyYAML builds ``yaml._yaml`` from ``yaml/_yaml.pyx`` while the Python package is
    ``lib/yaml/`` (``package_dir={'': 'lib'}``): ``yaml.reader.ReaderError`` is read
    from ``lib/yaml/reader.py``, so the record holds what its ``__str__`` prints, not
    the builtin rule's tuple of the constructor's arguments."""
    from errdex.extract.python.project import reading_repository

    (tmp_path / "lib" / "yaml").mkdir(parents=True)
    (tmp_path / "yaml").mkdir()
    (tmp_path / "lib" / "yaml" / "__init__.py").write_text("")
    (tmp_path / "lib" / "yaml" / "reader.py").write_text(
        "class ReaderError(Exception):\n"
        "    def __init__(self, name, position):\n"
        "        self.name = name\n        self.position = position\n\n"
        "    def __str__(self):\n"
        '        return "unacceptable character\\n  in \\"%s\\", position %d" % '
        "(self.name, self.position)\n"
    )
    source = (
        "import yaml\n\nReaderError = yaml.reader.ReaderError\n\n"
        "cdef class CParser:\n    def fail(self):\n"
        "        raise ReaderError(self.stream_name, self.offset)\n"
    )
    with reading_repository(tmp_path):
        (site,) = extract_cython(source, "yaml/_yaml.pyx")
    assert site.template.display == 'unacceptable character\n  in "%s", position %d'
    assert site.template.match('unacceptable character\n  in "<file>", position 3')


def test_the_arguments_read_apart_keep_a_separator_between_every_two() -> None:
    """The class prints its arguments its own way, something between each two: a value
    and the text after it are not glued (``{n}1``), and a class's repr, which cannot take
    in that separator, still fits the message."""
    code = textwrap.dedent(
        """\
        from .errors import OtherError

        def check(n, x):
            if n:
                raise OtherError(n, "1")
            raise OtherError(type(x), "is not allowed")
        """
    )
    sites = _sites(code, "pkg/check.pyx")
    apart = {s.line: s.template for s in sites if not s.template.display.startswith("(")}
    assert apart[5].display == "{n}{…}1"
    assert apart[6].display == "{type(x)}{…}is not allowed"
    assert apart[6].match("<class 'int'>\nis not allowed") is not None
    assert apart[6].match("int is not allowed") is None
