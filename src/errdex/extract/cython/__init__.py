"""The Cython extractor: every raise, ``warnings.warn`` and message-bearing ``assert``
in ``.pyx``, ``.pxd`` and ``.pxi`` files and their Tempita templates (``.pyx.in``…).

Cython's own parser reads the file (:mod:`.parse`); the walk (:mod:`.walk`) hands each
site's statement to the Python extractor's reader, so a Cython message reads as the
same message would in Python. Records point at the line a Cython traceback prints:
for a template, the line of the file the build renders (:mod:`.templates`).
"""

from __future__ import annotations

from collections.abc import Callable

from errdex.extract.class_holes import typed_class_holes
from errdex.extract.python import module_name_for
from errdex.extract.python.shadowed import CLASS_PRINTERS
from errdex.extract.site import ErrorSite
from errdex.extract.source_lines import source_lines

from .arguments import STYLE as ARGUMENTS
from .arguments import argument_sites
from .includer import including_files, module_classes
from .parse import parse_cython
from .shadowed import cython_shadowed_lines
from .templates import TEMPLATE_SUFFIX, render_template
from .walk import CythonExtractor

__all__ = ["SUFFIXES", "cython_module_name", "extract", "extract_cython"]

SUFFIXES = (".pyx", ".pxd", ".pxi", ".pyx.in", ".pxd.in", ".pxi.in")


def cython_module_name(path: str) -> str:
    """``msgpack/_unpacker.pyx`` -> ``msgpack._unpacker`` (``src/`` dropped, as for Python)."""
    stem = path.removesuffix(TEMPLATE_SUFFIX)
    for suffix in (".pyx", ".pxd", ".pxi"):
        stem = stem.removesuffix(suffix)
    return module_name_for(stem + ".py")


def extract_cython(
    text: str, file_path: str, lines: list[str] | None = None, *, arguments: bool = False
) -> list[ErrorSite]:
    """Every site of one Cython file (a template is rendered first, as the build does);
    ``arguments``: also the errors of each function's generated argument parsing
    (:mod:`.arguments`), as a scan catalogues them.

    Raises :class:`~errdex.extract.registry.ExtractError` for a file Cython's parser
    cannot read, or a template that needs names only the build provides.
    """
    notes = rendered = None
    if file_path.endswith(TEMPLATE_SUFFIX):
        rendered = render_template(text, file_path)
        text, notes = rendered.text, rendered.notes
        lines = source_lines(text)
    elif lines is None:
        lines = source_lines(text)
    rendered_path = file_path.removesuffix(TEMPLATE_SUFFIX)
    tree = parse_cython(text, pxd=rendered_path.endswith(".pxd"))
    own = cython_module_name(file_path)
    extractor = CythonExtractor(text, file_path, own, lines, notes)
    sites = extractor.run_cython(
        tree, package_init=rendered_path.rsplit("/", 1)[-1].startswith("__init__.")
    )
    # an included file's code is the including module's: its names are printed as that
    # module's (the file is read as its own module, which its imports are relative to);
    # included by several, it builds into each (``alsoModules``)
    outers = including_files(file_path)
    modules = [cython_module_name(p) for p in outers]
    module = modules[0] if modules else None
    shadowed = cython_shadowed_lines(tree, CLASS_PRINTERS)  # ``type=len``: see .shadowed
    for site in sites:
        if not shadowed(site.line):
            site.template = typed_class_holes(site.template)
        if module is not None:
            _place(site, own, module, tuple(dict.fromkeys(m for m in modules if m != module)))
    if arguments and not rendered_path.endswith(".pxd"):
        # a class of the module prints with the module's name (``expected pkg.a.T``), so
        # each includer's messages are read: one alike in several is one site of each
        by_text: dict[tuple[int, str], list[tuple[str, ErrorSite]]] = {}
        reads: list[tuple[str | None, str]] = list(zip(outers, modules, strict=True))
        for outer, into in reads or [(None, own)]:
            for site in argument_sites(tree, file_path, into, module_classes(file_path, outer)):
                by_text.setdefault((site.line, site.template.display), []).append((into, site))
        for alike in by_text.values():
            into, site = alike[0]
            if module is not None:
                also = dict.fromkeys(m for m, _ in alike[1:] if m != into)
                site.module, site.also_modules = into, tuple(also)
            sites.append(site)
        if rendered is not None:  # at the rendered def line, noting the template's line
            _note_template_lines(sites, rendered.renotes())
    return sites


def _note_template_lines(
    sites: list[ErrorSite], notes: Callable[[int], tuple[list[str], int | None]]
) -> None:
    """The generated argument sites of a rendered template say which template line wrote
    their ``def`` (asked in line order, as the walk asks for its raises)."""
    for site in sorted((s for s in sites if s.style == ARGUMENTS), key=lambda s: s.line):
        extra, site.source_line = notes(site.line)
        site.notes.extend(extra)


def _place(site: ErrorSite, own: str, module: str, also: tuple[str, ...]) -> None:
    """``site`` of an included file: named as ``module``'s, built into ``also`` too."""
    site.module, site.also_modules = module, also
    site.qualname = _renamed(site.qualname, own, module)
    site.qualified_class = site.qualified_class and _renamed(site.qualified_class, own, module)


def _renamed(name: str, own: str, module: str) -> str:
    """``msgpack._unpacker.Unpacker`` -> ``msgpack._cmsgpack.Unpacker``."""
    return module + name[len(own) :] if name.startswith(own + ".") else name


def extract(text: str, file_path: str, lines: list[str]) -> list[ErrorSite]:
    """The registry's entry point (see :mod:`errdex.extract.registry`)."""
    return extract_cython(text, file_path, lines, arguments=True)
