"""A private abstract hook of a public base that no public class defines with a ``def``
(``codecs.BufferedIncrementalDecoder._buffer_decode``: ``encodings.utf_8`` binds
``_buffer_decode = codecs.utf_8_decode``): the fix is to define it in the subclass,
where errdex said "found no fix"."""

from __future__ import annotations

from pathlib import Path

from errdex.analyze.quoting import NO_FIX

from .stdlib_items import one_file_items

SOURCE = """
__all__ = ["BufferedEncoder", "Utf8Encoder"]


class BufferedEncoder:
    def _buffer_encode(self, input, errors, final):
        raise NotImplementedError

    def encode(self, input, final=False):
        return self._buffer_encode(input, "strict", final)


def utf8(input, errors, final):
    return input, len(input)


class Utf8Encoder(BufferedEncoder):
    _buffer_encode = utf8


class _Base:
    def _step(self, x):
        raise NotImplementedError

    def run(self, x):
        return self._step(x)
"""


def _found(tmp_path: Path) -> dict[int, list[str]]:
    return {r["lineNumber"]: r["solutions"] for r, _ in one_file_items(tmp_path, "m.py", SOURCE)}


def test_a_private_hook_is_defined_in_the_subclass(tmp_path: Path) -> None:
    (text,) = _found(tmp_path)[7]
    assert text == (
        "Define `_buffer_encode(self, input, errors, final)` in your subclass of "
        "`BufferedEncoder`: `BufferedEncoder.encode()` calls it, and `BufferedEncoder`'s own "
        "`_buffer_encode` raises `NotImplementedError` with no condition, so an object of "
        "`BufferedEncoder` itself, or of a subclass that does not define it, fails there. "
        "The repository's own subclasses (`m.Utf8Encoder`) bind `_buffer_encode` to an "
        "existing function in the class body (`_buffer_encode = …`)."
    )


def test_a_private_base_is_no_class_to_subclass(tmp_path: Path) -> None:
    assert _found(tmp_path)[23] == [NO_FIX]
