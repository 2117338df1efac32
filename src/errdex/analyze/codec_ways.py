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

from .facts import FuncFacts
from .gathered import Gathered, short_name

__all__ = ["codec_way"]

#: The method or function -> how a caller runs it, ``{name}`` the codec's.
_WAYS = {
    "encode": "`s.encode('{name}')` (`s` a `str`)",
    "decode": "`b.decode('{name}')` (`b` a `bytes` object)",
}


def codec_way(g: Gathered, func: FuncFacts | None) -> str | None:
    """The way a caller runs ``func`` when it is the stateless encode or decode of a
    codec module of ``encodings`` (one that defines ``getregentry``, in the raising
    module); None for anything else."""
    if func is None or func.name not in _WAYS or func.module != g.site.module:
        return None
    package, _, name = func.module.rpartition(".")
    if package != "encodings" or "getregentry" not in g.module_names:
        return None
    if func.cls is not None and short_name(func.cls) != "Codec":
        return None
    return _WAYS[func.name].format(name=name)
