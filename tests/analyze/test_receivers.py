"""A chain through ``self.m()`` holds only for a ``self`` whose class runs that ``m``."""

from __future__ import annotations

from pathlib import Path

from .stdlib_items import ON_311, one_file_items, stdlib_items

_PARSERS = (
    "class Base:\n"
    "    def prepare(self, source):\n"
    "        raise NotImplementedError('prepare must be overridden')\n"
    "\n"
    "    def parse(self, source):\n"
    "        self.prepare(source)\n"
    "\n\n"
    "class Expat(Base):\n"
    "    def prepare(self, source):\n"
    "        return source\n"
    "\n"
    "    def parse(self, source):\n"
    "        Base.parse(self, source)\n"
    "\n"
    "    def reparse(self, source):\n"
    "        super().parse(source)\n"
    "\n\n"
    "class Plain(Base):\n"
    "    def parse(self, source):\n"
    "        Base.parse(self, source)\n"
    "\n\n"
    "class Loose:\n"
    "    def run(self, parser, source):\n"
    "        parser.parse(source)\n"
    "\n\n"
    "def parse_with(source):\n"
    "    parser = Base()\n"
    "    return parser.parse(source)\n"
)


def test_a_caller_whose_self_overrides_the_method_on_the_way_is_no_entry_point(
    tmp_path: Path,
) -> None:
    """``Expat.parse`` hands its ``self`` to ``Base.parse``, whose ``self.prepare`` then
    runs ``Expat.prepare``: the base's raise is not reached (nor through ``super()``).
    ``Plain`` overrides nothing on the way, and ``parse_with``'s receiver is a new
    object (not followed as a receiver, so kept)."""
    ((_, evidence),) = one_file_items(tmp_path, "m.py", _PARSERS)
    assert [e["qualname"] for e in evidence["entryPoints"]] == [
        "m.Base.prepare",
        "m.Base.parse",
        "m.Plain.parse",
    ]
    # parse_with is further than the three nearest; it is a caller all the same
    ((_, wide),) = one_file_items(tmp_path, "m.py", _PARSERS.replace("class Plain", "class _P"))
    assert [e["qualname"] for e in wide["entryPoints"]] == [
        "m.Base.prepare",
        "m.Base.parse",
        "m.parse_with",
    ]


def test_an_override_in_a_subclass_of_the_caller_keeps_it(tmp_path: Path) -> None:
    """``Loop.send`` calls ``self._native()``, which ``UnixLoop`` overrides with the raise:
    a ``self`` of that subclass runs it, so ``Loop.send`` reaches the raise."""
    ((_, evidence),) = one_file_items(
        tmp_path,
        "m.py",
        "class Loop:\n"
        "    def _native(self, data):\n"
        "        return None\n"
        "\n"
        "    def send(self, data):\n"
        "        return self._native(data)\n"
        "\n\n"
        "class UnixLoop(Loop):\n"
        "    def _native(self, data):\n"
        "        raise OSError('no native send')\n",
    )
    assert [e["qualname"] for e in evidence["entryPoints"]] == ["m.Loop.send"]


@ON_311
def test_expat_parser_parse_does_not_reach_the_base_class_raises() -> None:
    """Blind review stop 31, records 12 and 15 (false): ``ExpatParser.parse`` calls
    ``IncrementalParser.parse(self, source)``, whose ``self.prepareParser`` and
    ``self.close`` are ``ExpatParser``'s own (expatreader.py:119, :234)."""
    found = {
        r["lineNumber"]: [e["qualname"] for e in ev["entryPoints"]]
        for r, ev in stdlib_items("xml/sax/xmlreader.py", "xml/sax/expatreader.py")
        if r["filePath"].endswith("xml/sax/xmlreader.py")
    }
    for line, method in ((141, "prepareParser"), (154, "close")):
        assert found[line][:2] == [
            f"xml.sax.xmlreader.IncrementalParser.{method}",
            "xml.sax.xmlreader.IncrementalParser.parse",
        ]
        assert "xml.sax.expatreader.ExpatParser.parse" not in found[line]


def test_a_local_made_by_a_constructor_is_that_class_exactly(tmp_path: Path) -> None:
    """``parser = Expat()`` then ``parser.parse()``: ``Base.parse``'s ``self.prepare`` is
    ``Expat.prepare`` on it, so ``with_expat`` does not reach the raise."""
    text = _PARSERS.replace("class Plain", "class _P") + (
        "\n\ndef with_expat(source):\n    parser = Expat()\n    return Base.parse(parser, source)\n"
        "\n\ndef with_expat_too(source):\n    parser = Expat()\n    return parser.parse(source)\n"
    )
    ((_, evidence),) = one_file_items(tmp_path, "m.py", text)
    assert [e["qualname"] for e in evidence["entryPoints"]] == [
        "m.Base.prepare",
        "m.Base.parse",
        "m.parse_with",
    ]


def test_an_override_that_calls_the_base_keeps_the_subclass_caller(tmp_path: Path) -> None:
    """``SSL._socket`` overrides ``Plain._socket`` and calls it through ``super()``:
    ``SSL.open`` reaches the raise that way (``imaplib.IMAP4_SSL``, three calls away);
    ``Stream`` overrides ``_socket`` without calling the base, so ``Stream.open`` does not."""
    ((_, evidence),) = one_file_items(
        tmp_path,
        "m.py",
        "class Plain:\n"
        "    def _socket(self, timeout):\n"
        "        if timeout == 0:\n"
        "            raise ValueError('non-blocking sockets are not supported')\n"
        "\n"
        "    def open(self, timeout):\n"
        "        self._socket(timeout)\n"
        "\n\n"
        "class SSL(Plain):\n"
        "    def _socket(self, timeout):\n"
        "        return super()._socket(timeout)\n"
        "\n"
        "    def open(self, timeout):\n"
        "        super().open(timeout)\n"
        "\n\n"
        "class Stream(Plain):\n"
        "    def _socket(self, timeout):\n"
        "        return None\n"
        "\n"
        "    def open(self, timeout):\n"
        "        super().open(timeout)\n",
    )
    assert [(e["qualname"], e["depth"]) for e in evidence["entryPoints"]] == [
        ("m.Plain.open", 1),
        ("m.SSL.open", 3),
    ]


def test_an_unbound_init_call_passes_self_on(tmp_path: Path) -> None:
    """``Base.__init__(self)`` in ``Sub.__init__`` runs ``Sub.prepare``, not the base's."""
    ((_, evidence),) = one_file_items(
        tmp_path,
        "m.py",
        "class Base:\n"
        "    def __init__(self):\n"
        "        self.prepare()\n"
        "\n"
        "    def prepare(self):\n"
        "        raise NotImplementedError('prepare')\n"
        "\n\n"
        "class Sub(Base):\n"
        "    def __init__(self):\n"
        "        Base.__init__(self)\n"
        "\n"
        "    def prepare(self):\n"
        "        return None\n",
    )
    # ``prepare`` is called only by ``__init__``: the constructor, what a user calls, first
    assert [e["qualname"] for e in evidence["entryPoints"]] == ["m.Base.__init__", "m.Base.prepare"]
