"""A message picked from a literal table by subscript: ``{OPENED: "…once.", CLOSED:
"…closed."}[self._state]`` (httpx's AsyncClient.__aenter__) or ``("bad a", "bad b")[kind]``.

The message is one of the table's values, so each value is one alternative of the
template; read as one hole, ``{msg}`` matched any text (stop 39's blind review: "the two
messages are fixed strings in the source, and the field shows neither"). A ``**`` entry or a
starred item leaves the table open, and the subscript is then read as before.
"""

from __future__ import annotations

import ast

__all__ = ["picked_values"]


def picked_values(node: ast.Subscript, most: int) -> list[ast.expr] | None:
    """The values ``node`` picks one of, where it subscripts a literal dict, tuple or list
    of two to ``most`` values with an index (not a slice); None otherwise."""
    table, index = node.value, node.slice
    if isinstance(index, ast.Slice):
        return None
    if isinstance(table, ast.Dict):
        if any(key is None for key in table.keys):  # ``{**base, …}``
            return None
        values = list(table.values)
    elif isinstance(table, ast.Tuple | ast.List):
        if any(isinstance(item, ast.Starred) for item in table.elts):
            return None
        values = list(table.elts)
    else:
        return None
    return values if 1 < len(values) <= most else None
