"""The Python extractor: every raise, ``warnings.warn``, message-bearing ``assert`` and
``yield`` of an exception (``yield ValidationError(…)``, raised by the generator's consumer).

One walk over a module's statements (``walk``) finds the sites; ``exceptions`` says
what each raises, ``messages`` (with ``literals``) turns message expressions into
templates, ``guards`` writes the conditions on the way, ``scope`` keeps what names are
bound to and ``module`` what the module defines, imports and says.
"""

from __future__ import annotations

from errdex.extract._downgrade import parse_any
from errdex.extract.class_holes import typed_class_holes
from errdex.extract.site import ErrorSite

from .filled import str_argument
from .guards import negate
from .module import module_name_for
from .shadowed import CLASS_PRINTERS, shadowed_lines
from .walk import ModuleExtractor

__all__ = ["extract", "extract_python", "module_name_for", "negate", "str_argument"]


def extract_python(
    source: str,
    file_path: str,
    *,
    module: str | None = None,
    lines: list[str] | None = None,
) -> list[ErrorSite]:
    """Every raise, ``warnings.warn``, message-bearing ``assert`` and yielded exception in
    ``source``.

    ``lines`` is ``source_lines(source)`` (:mod:`errdex.extract.source_lines`) when the caller already has it.
    Raises SyntaxError when the file does not parse with any supported grammar.
    """
    tree, fields = parse_any(source, file_path)
    extractor = ModuleExtractor(source, file_path, module or module_name_for(file_path), fields)
    extractor._lines = lines
    sites = extractor.run(tree)
    shadowed = shadowed_lines(tree, CLASS_PRINTERS)  # ``type=len``: it prints what len does
    for site in sites:  # ``f"… {type(x)}"`` prints ``<class 'int'>``, not any text
        if not shadowed(site.line):
            site.template = typed_class_holes(site.template)
    return sites


def extract(source: str, file_path: str, lines: list[str]) -> list[ErrorSite]:
    """The registry's entry point (see :mod:`errdex.extract.registry`)."""
    return extract_python(source, file_path, module=module_name_for(file_path), lines=lines)
