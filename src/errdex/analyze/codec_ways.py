"""How a caller reaches a codec of the ``encodings`` package: by the codec's name, through
``str.encode`` and ``bytes.decode``, not by calling its ``Codec.encode``.

Paired blind review of stop 37: "It comes from a call of `nameprep()` or `ToASCII()`"
(``encodings.idna``) named helpers of the codec; the common situation is a host name
encoded with ``'idna'``. :func:`encodings.search_function` imports ``encodings.<name>``
for the name a caller gives and takes what its ``getregentry()`` returns: the stateless
``encode`` and ``decode`` (a ``Codec`` class's methods, or the module's own functions)
are what ``str.encode(name)`` and ``bytes.decode(name)`` run. The incremental and stream
classes are left out: ``str.encode`` does not run them.
"""

from __future__ import annotations

import os
import re

from .facts import FuncFacts
from .gathered import Gathered, short_name

__all__ = ["codec_way"]

#: The method or function -> how a caller runs it, ``{name}`` the codec's.
_WAYS = {
    "encode": "`s.encode('{name}')` (`s` a `str`)",
    "decode": "`b.decode('{name}')` (`b` a `bytes` object)",
}


#: The same for a codec that is no text encoding: :func:`codecs.encode` and
#: :func:`codecs.decode` take any codec.
_BYTES_WAYS = {
    "encode": "`codecs.encode(x, '{name}')`",
    "decode": "`codecs.decode(x, '{name}')`",
}
#: Modules of ``encodings`` that are no codec ``search_function`` finds by name.
_NOT_CODECS = frozenset({"aliases"})


def codec_way(g: Gathered, func: FuncFacts | None) -> str | None:
    """The way a caller runs ``func`` when it is the stateless encode or decode of a
    codec module of ``encodings`` (``search_function`` imports it by the name given and
    requires its ``getregentry``; the raising module's is checked); None for anything
    else."""
    if func is None or func.name not in _WAYS:
        return None
    package, _, name = func.module.rpartition(".")
    if package != "encodings" or name in _NOT_CODECS:
        return None
    if func.module == g.site.module and "getregentry" not in g.module_names:
        return None  # the raising module: read; another module of encodings: by its place
    if func.cls is not None and short_name(func.cls) != "Codec":
        return None
    text = _text_codec(g, func.module)
    if text is None:
        return None
    return (_WAYS if text else _BYTES_WAYS)[func.name].format(name=name)


def _text_codec(g: Gathered, module: str) -> bool | None:
    """Whether ``str.encode`` and ``bytes.decode`` take the codec: not where its
    ``getregentry`` says ``_is_text_encoding=False`` (``uu_codec``, ``bz2_codec``: run,
    ``b.decode('uu_codec')`` raises LookupError "is not a text encoding"); None where its
    file is not among the library's."""
    tail = "/" + module.replace(".", "/") + ".py"
    for path in g.repo_files:
        if path.replace(os.sep, "/").endswith(tail):
            with open(path, encoding="utf-8", errors="replace") as handle:
                return _NOT_TEXT.search(handle.read()) is None
    return None


#: How ``getregentry`` marks a codec ``str.encode`` and ``bytes.decode`` refuse.
_NOT_TEXT = re.compile(r"\b_is_text_encoding\s*=\s*False\b")
