"""A module's own plumbing is no way in: the public calls above it are named instead
(paired blind review of stop 37: "`FTP.makepasv()` or `FTP.ntransfercmd()`", "`nameprep()`
or `ToASCII()`" judged misleading)."""

from __future__ import annotations

from pathlib import Path

from errdex.scan import scan_checkout
from errdex.source import open_source

from .stdlib_items import one_file_items

CLIENT = '''\
__all__ = ["Client"]


class Client:
    def listing(self):
        """Fetch the listing of the current directory."""
        return self.handshake()

    def handshake(self):
        """Internal: does the passive handshake."""
        return parse(self.reply())

    def reply(self):
        return "500 no"


def parse(resp):
    if resp[:3] != "227":
        raise ValueError("unexpected reply")
    return resp
'''


def test_internal_helpers_give_way_to_the_public_call_above(tmp_path: Path) -> None:
    """``parse`` is left out of ``__all__`` and ``handshake``'s docstring calls it
    internal: the situation and the entry points name ``Client.listing``, the call
    users make, and not the helpers (both were named before)."""
    ((record, evidence),) = [
        (r, e)
        for r, e in one_file_items(tmp_path, "client.py", CLIENT)
        if r["errorMessage"] == "unexpected reply"
    ]
    assert [e["qualname"] for e in evidence["entryPoints"]] == ["client.Client.listing"]
    assert record["commonSituations"] == "It comes from a call of `Client.listing()`."


CODEC = """\
import codecs


def check(label):
    size = len(label.encode("utf-8"))
    if size > 63:
        raise UnicodeError("label too long")
    return label


class Codec(codecs.Codec):
    def encode(self, input, errors="strict"):
        return check(input).encode("ascii"), len(input)

    def decode(self, input, errors="strict"):
        return check(input).decode("ascii"), len(input)


def getregentry():
    return codecs.CodecInfo(name="rot", encode=Codec().encode, decode=Codec().decode)
"""


def test_a_codec_helper_is_reached_by_the_codec_name(tmp_path: Path) -> None:
    """A helper of a codec module of ``encodings`` (it defines ``getregentry``) is met
    through ``str.encode``/``bytes.decode`` with the codec's name, not a call of
    ``check()`` or ``Codec.encode()``."""
    (tmp_path / "encodings").mkdir()
    (tmp_path / "encodings" / "__init__.py").write_text("")
    (tmp_path / "encodings" / "rot.py").write_text(CODEC)
    result = scan_checkout(open_source(str(tmp_path), repo="o/enc"), repo="o/enc")
    ((record, _),) = [(r, e) for r, e in result.items if r["errorMessage"] == "label too long"]
    assert record["commonSituations"] == (
        "It comes from `s.encode('rot')` (`s` a `str`) or `b.decode('rot')` (`b` a `bytes` object)."
    )


TOOL = '''\
import sys


def lookup(name):
    """Internal: find the entry for name."""
    found = {"a": 1}.get(name)
    if found is None:
        raise KeyError("unknown name %r" % name)
    return found


def main():
    try:
        print(lookup(sys.argv[1]))
    except KeyError as exc:
        print(exc)
        sys.exit(2)


def wrapped(name):
    try:
        return lookup(name)
    except KeyError as exc:
        raise ValueError(str(exc)) from None
'''


def test_a_caller_that_converts_is_no_way_in_for_the_class(tmp_path: Path) -> None:
    """``lookup`` is internal, but its callers raise ValueError or exit in its place:
    dropping it named ``wrapped()`` alone, whose call never lets a KeyError out
    (read-only review, session 39). The internal call stays the one named."""
    ((record, evidence),) = [
        (r, e)
        for r, e in one_file_items(tmp_path, "tool.py", TOOL)
        if "unknown name" in r["errorMessage"]
    ]
    assert evidence["entryPoints"][0]["qualname"] == "tool.lookup"
    assert record["commonSituations"] == "It comes from a call of `lookup()`."


DOC = '''\
import sys

__all__ = ["help"]


def resolve(thing):
    if thing is None:
        raise ImportError("No documentation found")
    return thing


def render_doc(thing):
    """Render text documentation, given an object or a path to an object."""
    return str(resolve(thing))


def cli():
    """Command-line interface."""
    try:
        print(render_doc(sys.argv[1]))
    except ImportError as value:
        print(value)
        sys.exit(1)


class Helper:
    def __call__(self, thing):
        return render_doc(thing)


help = Helper()
'''


def test_documented_calls_wider_than_all_stay_ways_in(tmp_path: Path) -> None:
    """pydoc lists only ``help`` in ``__all__`` yet documents ``render_doc``: a name
    ``__all__`` leaves out stays a way in, with a docstring or without (``resolve``;
    tarfile's documented ``data_filter`` has none, test_platform_binds). ``cli`` exits
    in place of the ImportError, so it is never named as the way in."""
    ((record, evidence),) = [
        (r, e)
        for r, e in one_file_items(tmp_path, "doc.py", DOC)
        if r["errorMessage"] == "No documentation found"
    ]
    names = [e["qualname"] for e in evidence["entryPoints"]]
    assert "doc.render_doc" in names and "doc.resolve" in names
    assert record["commonSituations"].startswith(
        "It comes from a call of `resolve()` that passes `thing` as `None`"
    )
    assert "cli()" not in record["commonSituations"]


STRICT_CODEC = """\
import codecs


def rot_decode(text, errors):
    if errors == "strict":
        raise UnicodeError("not decodable")
    return text


class Codec(codecs.Codec):
    def decode(self, input, errors="strict"):
        return rot_decode(input, errors), len(input)


def getregentry():
    return codecs.CodecInfo(name="rot", encode=None, decode=Codec().decode)
"""


def test_the_argument_rule_says_a_codec_by_its_name(tmp_path: Path) -> None:
    """Where the caller's ``errors`` makes the raise's condition true, the call is
    said as ``b.decode('rot')``, as the entry rule says it, not as a call of
    ``Codec.decode()`` that nobody writes (read-only review, session 39)."""
    (tmp_path / "encodings").mkdir()
    (tmp_path / "encodings" / "__init__.py").write_text("")
    (tmp_path / "encodings" / "rot.py").write_text(STRICT_CODEC)
    result = scan_checkout(open_source(str(tmp_path), repo="o/enc"), repo="o/enc")
    ((record, _),) = [(r, e) for r, e in result.items if r["errorMessage"] == "not decodable"]
    assert record["commonSituations"].startswith(
        "It comes from `b.decode('rot')` (`b` a `bytes` object) with `errors` as `'strict'`"
    )
    assert "Codec.decode()" not in record["commonSituations"]
