"""An ``assert`` whose message is the line number and the line of a file the function
reads (``lib2to3.pgen2.conv.Converter.parse_graminit_c``: ``assert mo, (lineno,
line)``, 30 sites), where errdex said "found no fix" (blind review stop 35, record 31:
"the fix is to feed a graminit.c in the format pgen writes"). The file's contents are
what fails the check: the message shows which line. Only for a public function that is
not nested in another, and only when the assert (its test or its message: ``assert 0, (lineno, line)``) is built from the parameter
(:mod:`.flow_names`), not when a parameter merely has a file's name.
"""

from __future__ import annotations

from .fix_names import public_class
from .flow_names import params_behind
from .gathered import Gathered, class_phrase
from .guards import code

__all__ = ["file_line_fix"]

#: A solution and the evidence keys it rests on.
Remedy = tuple[str, list[str]]

#: Parameter names that hold the path of the file read.
_FILE_PARAMS = ("filename", "fname", "path", "filepath", "file")


def file_line_fix(g: Gathered) -> Remedy | None:
    """For an assert whose message holds exactly ``lineno`` and ``line``, in a function
    with one parameter naming a file: the line of that file is to be corrected."""
    func = g.func
    if func is None or g.site.kind != "assert" or g.site.template.is_opaque:
        return None
    if {h.name for h in g.site.template.holes} != {"lineno", "line"}:
        return None
    if func.parent is not None or (func.name.startswith("_") and not func.name.endswith("__")):
        return None  # a nested or private function: no caller passes it the file
    behind = params_behind(g.source_file, func, g.site.line, "both")
    files = [p for p in func.params if p in _FILE_PARAMS and p in behind]
    if len(files) != 1:
        return None  # the assert is not built from the file's lines (``assert 0`` reads
        # none, but its message shows the line it read)
    cls = public_class(g)
    if func.cls is not None and cls is None:
        return None  # a private class's method: no call of the caller's to name
    call = code(f"{cls}.{func.name}()" if cls else f"{func.name}()")
    return (
        f"Correct the line of the file passed as {code(files[0])} to {call} that the "
        f"message shows (its number and text, {code('(lineno, line)')}), or pass a file in "
        f"the format {call} reads: it fails its assertion with {class_phrase(g)} at the "
        "first line that does not fit that format or disagrees with what was read before.",
        ["site.template", "site.function"],
    )
