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
        "The repository's own subclasses (`m.Utf8Encoder`) assign `_buffer_encode` in the "
        "class body (`_buffer_encode = …`) instead of a `def`."
    )


def test_a_private_base_is_no_class_to_subclass(tmp_path: Path) -> None:
    assert _found(tmp_path)[23] == [NO_FIX]


HOOKS = """
import abc

__all__ = ["Mangled", "Static", "Waits", "AbcBase", "Unset", "Blank"]


class Mangled:
    def run(self):
        return self.__step()

    def __step(self):
        raise NotImplementedError


class Static:
    def run(self, x):
        return self._conv(x)

    @staticmethod
    def _conv(x):
        raise NotImplementedError


class Waits:
    async def run(self):
        return await self._wait()

    async def _wait(self):
        raise NotImplementedError


class AbcBase(abc.ABC):
    def go(self):
        return self._impl()

    @abc.abstractmethod
    def _impl(self):
        raise NotImplementedError


class Unset:
    def run(self, x):
        return self._enc(x)

    def _enc(self, x):
        raise NotImplementedError


class Blank(Unset):
    _enc = None
"""


def _hooks(tmp_path: Path) -> dict[int, list[str]]:
    return {r["lineNumber"]: r["solutions"] for r, _ in one_file_items(tmp_path, "h.py", HOOKS)}


def test_a_mangled_hook_is_no_name_a_subclass_defines(tmp_path: Path) -> None:
    # the base calls ``self._Mangled__step``: a subclass's ``__step`` is ``_Sub__step``
    assert not any("__step" in s for s in _hooks(tmp_path)[12])


def test_the_signature_keeps_how_the_hook_is_defined(tmp_path: Path) -> None:
    found = _hooks(tmp_path)
    assert found[21][0].startswith(
        "Define `_conv(x)` as a `@staticmethod` in your subclass of `Static`: "
    )
    assert found[29][0].startswith("Define `async def _wait(self)` in your subclass of `Waits`: ")


def test_an_abc_base_is_never_made(tmp_path: Path) -> None:
    (text,) = _hooks(tmp_path)[38]
    assert "an object of `AbcBase` itself" not in text
    assert text == (
        "Define `_impl(self)` in your subclass of `AbcBase`, without calling the base's: "
        "`AbcBase.go()` calls it, and `AbcBase`'s own `_impl` raises `NotImplementedError` "
        "with no condition. It is an `@abstractmethod`, so a class that does not define "
        "`_impl` cannot be instantiated: the raise is reached only from an override that "
        "calls it (`super()._impl(...)`) or a direct call of `AbcBase._impl`."
    )


def test_an_assignment_is_not_said_to_bind_a_function(tmp_path: Path) -> None:
    (text,) = _hooks(tmp_path)[46]  # ``Blank`` binds ``_enc = None``
    assert "existing function" not in text
    assert text.endswith(
        "The repository's own subclasses (`h.Blank`) assign `_enc` in the class body "
        "(`_enc = …`) instead of a `def`."
    )
