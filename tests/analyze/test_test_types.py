"""Test links through objects a test binds at run time (issue 10, deliver 2), on the forms
of CPython's suites: ``with dumbdbm.open(name, 'r') as f: f[k] = v`` (``test_dbm_dumb``),
``a, b = self.Pipe()`` with ``Pipe = staticmethod(multiprocessing.Pipe)`` in the mixin
(``_test_multiprocessing``), ``nodemap = elem.attributes`` (``test_minidom``), an alias
``f = obj.method`` called in the block, ``getattr(obj, 'm')`` given to ``assertRaises``,
iteration as a call of ``__iter__``, and a suite helper's own local object; and what must
not link: a name bound twice, a function returning instances of two classes, a subscript
on an object of no known class, and, without a message, the callers' written-out forms of
one raise (``'%s.detach() not supported'`` beside ``'%s.%s() not supported'``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from errdex.scan import scan_checkout
from errdex.source import open_source

DUMB = """\
class error(OSError):
    pass


class _Database:
    def __init__(self, flag):
        self._flag = flag
        self._index = {}

    def __enter__(self):
        return self

    def __exit__(self, *args):
        self.close()

    def __setitem__(self, key, value):
        if self._flag == "r":
            raise error("The database is opened for reading only")
        self._index[key] = value

    def __delitem__(self, key):
        if self._flag == "r":
            raise error("The database is opened for reading only")
        del self._index[key]

    def __iter__(self):
        if self._index is None:
            raise error("DBM object has already been closed")
        return iter(self._index)

    def keys(self):
        if self._index is None:
            raise error("DBM object has already been closed") from None
        return list(self._index)

    def close(self):
        self._index = None

    def __getitem__(self, key):
        if key not in self._index:
            raise KeyError(key)
        return self._index[key]


def open(file, flag="c"):
    return _Database(flag)


class closing:
    def __init__(self, thing):
        self.thing = thing

    def __enter__(self):
        return self.thing

    def __exit__(self, *exc_info):
        self.thing.close()
"""

CONNECTION = """\
class Connection:
    def __init__(self, fd, readable=True, writable=True):
        self._fd = fd

    def send_bytes(self, buf, offset=0):
        if offset < 0:
            raise ValueError("offset is negative")
        return buf[offset:]


def Pipe(duplex=True):
    if duplex:
        c1 = Connection(1)
        c2 = Connection(2)
    else:
        c1 = Connection(1, writable=False)
        c2 = Connection(2, readable=False)
    return c1, c2
"""

DOM = """\
class NotFoundErr(Exception):
    pass


class NamedNodeMap:
    def __init__(self, attrs):
        self._attrs = attrs

    def removeNamedItem(self, name):
        if name not in self._attrs:
            raise NotFoundErr()
        return self._attrs.pop(name)


class Children:
    def item(self, i):
        if i < 0:
            raise IndexError()
        return i


class Element:
    def __init__(self):
        self._attrs = {}
        self.childNodes = Children()

    @property
    def attributes(self):
        return NamedNodeMap(self._attrs)


class Text:
    def item(self, i):
        raise IndexError()


def make(kind):
    if kind:
        return Element()
    return Text()


class UnsupportedOperation(OSError):
    pass


class IOBase:
    def _unsupported(self, name):
        raise UnsupportedOperation("%s.%s() not supported" % (self.__class__.__name__, name))

    def seek(self, pos):
        self._unsupported("seek")

    def detach(self):
        self._unsupported("detach")


def defproperty(klass, name, doc):
    setattr(klass, name, property(getattr(klass, "_get_" + name), doc=doc))


class Document:
    def _get_documentElement(self):
        return Element()


defproperty(Document, "documentElement", doc="Top-level element of this document.")
"""

TESTS = """\
import unittest

from pkg import connection, dom
from pkg import dumb as dumbdbm


class DumbTests(unittest.TestCase):
    def test_readonly(self):
        with dumbdbm.open("x", "r") as f:
            with self.assertRaises(dumbdbm.error):
                f[b"g"] = b"x"

    def test_iterate_closed(self):
        db = dumbdbm.open("x")
        db.close()
        with self.assertRaises(dumbdbm.error):
            for k in db:
                pass

    def test_alias(self):
        db = dumbdbm.open("x")
        db.close()
        keys = db.keys
        with self.assertRaises(dumbdbm.error) as cm:
            keys()

    def test_bound_twice(self):
        db = dumbdbm.open("x")
        db = dumbdbm.open("y", "r")
        with self.assertRaises(dumbdbm.error):
            del db[b"a"]

    def test_bound_to_two_things(self):
        db = dumbdbm.open("y", "r")
        db = {}
        with self.assertRaises(dumbdbm.error):
            del db[b"a"]

    def test_readonly_closing(self):
        with dumbdbm.closing(dumbdbm.open("x", "r")) as f:
            with self.assertRaises(dumbdbm.error):
                del f[b"a"]

    def test_missing_key(self):
        with dumbdbm.open("x") as f:
            with self.assertRaises(KeyError):
                f[b"xxx"]

    def test_item_of_an_item(self):
        with dumbdbm.open("x") as f:
            with self.assertRaises(KeyError):
                f[b"xxx"][b"yyy"]

    def test_untyped_subscript(self):
        rows = [dumbdbm.open("x", "r")]
        with self.assertRaises(dumbdbm.error):
            rows[0] = 1


class PipeMixin:
    def test_sendbytes(self):
        a, b = self.Pipe()
        self.assertRaises(ValueError, a.send_bytes, b"x", -1)

    def test_getattr(self):
        a, b = self.Pipe()
        self.assertRaises(ValueError, getattr(a, "send_bytes"), b"x", -1)


class ProcessesTest(PipeMixin, unittest.TestCase):
    Pipe = staticmethod(connection.Pipe)


class DomTests(unittest.TestCase):
    def test_remove_named_item(self):
        e = dom.Element()
        attrs = e.attributes
        self.assertRaises(dom.NotFoundErr, attrs.removeNamedItem, "a")

    def test_document_element(self):
        doc = dom.Document()
        attrs = doc.documentElement.attributes
        self.assertRaises(dom.NotFoundErr, attrs.removeNamedItem, "a")

    def test_child_of_either(self):
        node = dom.make(1)
        with self.assertRaises(IndexError):
            node.item(-1)

    def test_detach(self):
        io = dom.IOBase()
        self.assertRaises(dom.UnsupportedOperation, io.detach)

    def check_missing(self, exc, name):
        elem = dom.Element()
        nodemap = elem.attributes
        with self.assertRaises(exc):
            nodemap.removeNamedItem(name)

    def test_through_helper(self):
        self.check_missing(dom.NotFoundErr, "b")
"""

Links = dict[tuple[str, int], list[dict[str, Any]]]


@pytest.fixture(scope="module")
def scanned(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[dict[str, Any], Any]]:
    root: Path = tmp_path_factory.mktemp("types")
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "dumb.py").write_text(DUMB)
    (root / "pkg" / "connection.py").write_text(CONNECTION)
    (root / "pkg" / "dom.py").write_text(DOM)
    (root / "tests").mkdir()
    (root / "tests" / "test_pkg.py").write_text(TESTS)
    result = scan_checkout(open_source(str(root), repo="o/types"), repo="o/types")
    return list(result.items)


@pytest.fixture(scope="module")
def links(scanned: list[tuple[dict[str, Any], Any]]) -> Links:
    """The tests linked to each site, by the site's file and line (records of one line
    together)."""
    out: Links = {}
    for record, evidence in scanned:
        key = (record["filePath"].rpartition("/")[2], record["lineNumber"])
        out.setdefault(key, []).extend(evidence["tests"])
    return out


def _names(links: Links, file: str, line: int) -> list[str]:
    return sorted(t["name"].rpartition("::")[2] for t in links.get((file, line), []))


def test_a_with_blocks_value_and_a_subscript_assignment(links: Links) -> None:
    """``with dumbdbm.open(...) as f``: ``open`` returns a ``_Database``, whose
    ``__enter__`` returns itself; ``f[k] = v`` calls its ``__setitem__``."""
    assert _names(links, "dumb.py", 18) == ["test_readonly"]


def test_a_with_block_given_back_what_its_callee_was_given(links: Links) -> None:
    """``with closing(dumbdbm.open(name, "r")) as f``: ``closing.__enter__`` returns
    the ``thing`` its ``__init__`` was given, so ``f`` is the ``_Database``."""
    assert "test_readonly_closing" in _names(links, "dumb.py", 23)


def test_iteration_calls_dunder_iter(links: Links) -> None:
    assert _names(links, "dumb.py", 28) == ["test_iterate_closed"]


def test_a_local_alias_of_a_bound_method(links: Links) -> None:
    assert _names(links, "dumb.py", 33) == ["test_alias"]


def test_a_name_bound_twice_or_an_untyped_subscript_links_nothing(links: Links) -> None:
    """``del db[k]`` after ``db`` is bound to two things, and ``rows[0] = 1`` on a list:
    the object's class is not known, so ``__delitem__``/``__setitem__`` are not followed."""
    assert "test_bound_to_two_things" not in _names(links, "dumb.py", 23)
    assert "test_untyped_subscript" not in _names(links, "dumb.py", 18)


def test_a_name_bound_twice_to_the_same_callee_holds_its_class(links: Links) -> None:
    """``db = dumbdbm.open("x")`` then ``db = dumbdbm.open("y", "r")``: a ``_Database``
    either way, so ``del db[k]`` is its ``__delitem__``."""
    assert _names(links, "dumb.py", 23) == ["test_bound_twice", "test_readonly_closing"]


def test_a_subscript_whose_item_is_used_further_is_not_the_last_step(links: Links) -> None:
    """``f[k][j]``: the item's own ``__getitem__``, of no known class, may raise the
    ``KeyError`` as well as ``f``'s; ``f[k]`` alone is ``f``'s."""
    assert _names(links, "dumb.py", 41) == ["test_missing_key"]


def test_a_tuple_element_of_a_staticmethod_bound_in_the_class_body(links: Links) -> None:
    """``a, b = self.Pipe()`` with ``Pipe = staticmethod(connection.Pipe)``: every
    ``return`` of ``Pipe`` gives ``Connection`` instances; ``getattr(a, "send_bytes")``
    is ``a.send_bytes``."""
    assert _names(links, "connection.py", 7) == ["test_getattr", "test_sendbytes"]


def test_a_property_returning_an_instance(links: Links) -> None:
    """``e.attributes`` through ``@property``; ``doc.documentElement`` through the
    ``_get_documentElement`` that ``defproperty`` makes a property of at import time."""
    assert _names(links, "dom.py", 11) == [
        "test_document_element",
        "test_remove_named_item",
        "test_through_helper",
    ]


def test_a_function_returning_two_classes_types_nothing(links: Links) -> None:
    """``make`` returns an ``Element`` or a ``Text``: ``node.item`` is either one's."""
    assert _names(links, "dom.py", 18) == []
    assert _names(links, "dom.py", 34) == []


def test_without_a_message_the_general_form_of_one_raise(
    scanned: list[tuple[dict[str, Any], Any]],
) -> None:
    """``io.detach()`` reaches ``_unsupported``'s raise, which its callers write out as
    ``'%s.seek() not supported'`` and ``'%s.detach() not supported'``: the test gives no
    message, so only the record of the raise as written is linked."""
    linked = [
        record["errorMessage"]
        for record, evidence in scanned
        if record["filePath"].endswith("dom.py") and record["lineNumber"] == 49
        if evidence["tests"]
    ]
    assert linked == ["%s.%s() not supported"]
