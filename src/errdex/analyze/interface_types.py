"""A type check on an argument of a method of a private class that implements a public
interface method: ``asyncio.unix_events._UnixWritePipeTransport.write`` asserts
``isinstance(data, (bytes, bytearray, memoryview))``, and what calls it is
``transport.write(data)`` on the transport the loop hands out, written as
``asyncio.transports.WriteTransport.write``. Nobody calls the private class by name, so
:func:`.stated_fixes.type_fix` found no call to name and errdex said "found no fix"; the
stop-38 blind review named it: "pass bytes (encode the str)". The interface
(:mod:`.class_links`) is the call the caller writes.
"""

from __future__ import annotations

from .gathered import Gathered, class_phrase, location, short_name
from .guards import code, has_private
from .stated_fixes import type_requirement

__all__ = ["interface_type_fix"]

#: A solution and the evidence keys it rests on.
Remedy = tuple[str, list[str]]


def interface_type_fix(g: Gathered) -> Remedy | None:
    """ "Pass ``x`` to ``write()`` as an instance of …" for a method of a private class
    that overrides a public class's method of the same name; None elsewhere."""
    func, links = g.func, g.links
    if func is None or func.cls is None or links is None or links.interface is None:
        return None
    if not has_private(func.cls):
        return None  # a public class: callers call it by name (``type_fix``)
    required = type_requirement(g, called=False)
    if required is None:
        return None
    subject, listed = required
    base, _, name = links.interface.rpartition(".")
    how = "fails its assertion with" if g.site.kind == "assert" else "raises"
    return (
        f"Pass {code(subject)} to {code(f'{name}()')} as an instance of {listed}: the "
        f"object's {code(f'{name}()')} is the library's own implementation of "
        f"{code(f'{short_name(base)}.{name}()')} ({code(links.interface)}), and it {how} "
        f"{class_phrase(g)} for any other ({location(g.site.path, g.site.line)}).",
        ["site.guards", "typeGuard", "function.signature"],
    )
