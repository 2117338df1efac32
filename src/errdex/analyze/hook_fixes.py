"""An abstract method whose name is private (``BaseEventLoop._make_socket_transport``):
"implement it in your subclass" names a hook no caller calls, and errdex said "found no
fix" there (issue 10). The caller's fix is the class they use: one of the repository's
own classes that define the hook (:attr:`.roles.Role.implementations`: not those whose
override raises ``NotImplementedError`` again, nor classes defined inside a function),
not the base. Under ``ABCMeta`` an ``@abstractmethod``'s base cannot be instantiated, so
the raise is said reached through ``super()`` or a direct call, not "on an object of it".
"""

from __future__ import annotations

from .gathered import Gathered, class_phrase, short_name
from .guards import code, has_private

__all__ = ["hook_solution"]

#: A solution and the evidence keys it rests on.
Remedy = tuple[str, list[str]]


def hook_solution(g: Gathered) -> Remedy | None:
    """For an abstract method with a private name on a public class: use a class that
    implements it; None where the base or every implementing class is private."""
    role, func = g.role, g.func
    if role is None or role.kind != "abstract" or func is None or func.cls is None:
        return None
    base = short_name(role.subject)
    if has_private(base) or not func.name.startswith("_") or func.name.startswith("__"):
        return None  # public, special, or mangled: a subclass's ``__step`` is its own name
    classes = [q.rpartition(".")[0] for q in role.implementations]
    public = list(dict.fromkeys(c for c in classes if c and not _hidden(c)))
    if not public:
        return None
    listed = ", ".join(code(c) for c in public)
    if role.abc_from is not None:  # neither the base nor a subclass without it is made
        reached = (
            f"reached only from an override that calls it (`super().{func.name}(...)`) or a "
            f"direct call of {code(f'{base}.{func.name}')}, as under `ABCMeta` a class that "
            f"does not define {code(func.name)} cannot be instantiated"
        )
    else:
        reached = (
            f"on an object of {code(base)} itself or of a subclass that does not define "
            f"{code(func.name)}"
        )
    return (
        f"{code(base)} leaves {code(func.name)} to its subclasses: its own raises "
        f"{class_phrase(g)} with no condition, {reached}. Use a class that defines it (the "
        f"repository's own include {listed}) or a subclass of one.",
        ["site.role"],
    )


def _hidden(qualname: str) -> bool:
    """A private class, or one defined inside a function (``factory.<locals>.Local``):
    a caller cannot name it."""
    return has_private(qualname) or "<locals>" in qualname
