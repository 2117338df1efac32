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
