"""The code fields: ``tryCatchPattern``, ``validationCode``, ``typeGuard`` and ``exampleFix``.

Code is written only from names the evidence holds (the class, the guards, the
raising function and its public entry points, the message's own "use X instead of Y"),
never guessed; a field without such evidence stays null.
"""

from __future__ import annotations

import ast
import builtins
import re

from errdex.evidence import EntryPoint, GuardItem
from errdex.template import MIN_ANCHOR_LENGTH

from .chain_funcs import own_params
from .entrypoints import run_by_syntax
from .facts import FuncFacts
from .gathered import Gathered, callable_name, location, short_name, verb
from .guards import CONDITION_KINDS, free_names, isinstance_checks, parse_guard
from .lazy_chain import COROUTINE, GENERATOR, LAZY, own_kind
from .linear import LinearRegex
from .rebinding import rebound_before

__all__ = [
    "example_fix",
    "programming_error",
    "try_catch",
    "type_guard",
    "unbound_names",
    "validation",
    "well_formed",
]

#: Searched in literals of any size: RE2, linear time.
_INSTEAD = LinearRegex(
    r"\b[Uu]se\s+(?P<after>`[^`]+`|'[^']+'|[\w.()\[\]]+)\s+instead\s+of\s+(?P<before>`[^`]+`|'[^']+'|[\w.()\[\]]+)"
    r"|(?P<before2>`[^`]+`|'[^']+'|[\w.()\[\]]+)\s+is\s+deprecated[^.;]*?\b[Uu]se\s+(?P<after2>`[^`]+`|'[^']+'|[\w.()\[\]]+)(?:\s+instead)?"
)


def _ranked_entries(g: Gathered) -> list[tuple[EntryPoint, FuncFacts]]:
    """The entry points to show in code, best first: one a converting handler is on the
    way from, then the closest, preferring plain functions to methods. A program's command
    line is none (``ftplib.test()`` exits before it reaches ``netrc``: ``script_mains``)."""
    ranked = sorted(
        (
            e
            for e in g.entry_points
            if e["qualname"] in g.entry_funcs
            and not run_by_syntax(e["qualname"])
            and g.entry_funcs[e["qualname"]].command_line is None
        ),
        key=lambda e: (
            # a handler on the way converting it to another class: what callers see
            short_name(str(e.get("surfacesAs") or g.site.error_class)) == g.site.error_class,
            e.get("depth", 0),
            g.entry_funcs[e["qualname"]].cls is not None,
        ),
    )
    return [(e, g.entry_funcs[e["qualname"]]) for e in ranked]


def _call(func: FuncFacts, extra: list[str] | None = None) -> tuple[str, str]:
    """(import line, call expression) for calling ``func`` with its required parameters
    (and ``extra`` ones, by keyword)."""
    names = list(func.required)
    plain = {n.partition("=")[0] for n in names}
    for p in extra or []:
        if p.lstrip("*") in plain or p in ("self", "cls"):
            continue
        names.append(p if p.startswith("*") else f"{p}={p}")
    args = ", ".join(names)
    if func.cls is not None:
        cls_name = short_name(func.cls)
        module = func.cls.rpartition(".")[0]
        call_name = cls_name if func.name in ("__init__", "__new__") else f"obj.{func.name}"
        return f"from {module} import {cls_name}", f"{call_name}({args})"
    return f"from {func.module} import {func.name}", f"{func.name}({args})"


def _class_import(g: Gathered) -> str | None:
    canonical = g.site.canonical_class or g.site.qualified_class
    if not canonical or canonical.startswith("builtins.") or "." not in canonical:
        return None
    module, _, name = canonical.rpartition(".")
    if module.partition(".")[0] in ("self", "cls"):  # ``raise self.case.failureException``
        return None
    return f"from {module} import {name}"


def _anchor(g: Gathered) -> str | None:
    """The longest literal run, the first in the message on a tie (not a set's order,
    which changes with the hash seed and would rewrite the record on every run)."""
    runs = [text.strip() for text in g.site.template.literals]
    runs = [text for text in runs if len(text) >= MIN_ANCHOR_LENGTH]
    return max(runs, key=len) if runs else None


_PROPERTY_DECORATORS = frozenset({"property", "cached_property"})


def _private_path(module: str) -> bool:
    """``httpx._exceptions``: a path a caller should not import from (the public alias is
    not in the evidence, so no import is written through it)."""
    return any(part.startswith("_") and not part.startswith("__") for part in module.split("."))


def _runs_body(kind: str | None, call: str) -> str | None:
    """The statement that makes ``call`` run the raise: a generator's body runs only when
    iterated, a coroutine's only when awaited (``kind``, from :mod:`.lazy_chain`: of the
    function or of what it returns on the way); None for an async generator or a result
    whose use is not known."""
    if kind == COROUTINE:
        return f"asyncio.run({call})"
    if kind == GENERATOR:
        return f"list({call})"
    return call if kind is None else None


def _entry_call(
    func: FuncFacts, extra: list[str] | None = None, kind: str | None = None
) -> tuple[list[str], str] | None:
    """(import lines, statement) reaching ``func``'s body as a caller writes it, passing
    ``extra`` parameters by keyword, iterated or awaited as ``kind`` says; None when no
    well-formed call can be written (an abstract class, a private module, an async
    generator, ``f(*args)`` given nothing)."""
    import_line, call = _call(func, extra)
    if call.endswith("()") and any(
        p.startswith("*") and not p.startswith("**") for p in func.params
    ):
        return None  # ``check_call(*popenargs)`` called with nothing never gets to run a command
    module = func.cls.rpartition(".")[0] if func.cls is not None else func.module
    if _private_path(module):
        return None
    constructor = func.name in ("__init__", "__new__")
    if func.cls is not None and (func.cls_abstract and constructor):
        return None
    if constructor and call.endswith("()") and own_params(func):
        return None  # ``TarFile()``: with every argument left out it opens nothing
    refs = {".".join(d) for d in func.decorators}
    if func.cls is not None and not constructor:
        if refs & _PROPERTY_DECORATORS or "functools.cached_property" in refs:
            call = f"obj.{func.name}"
        elif f"{func.name}.setter" in refs:
            call = f"obj.{func.name} = {func.required[-1] if func.required else 'value'}"
        elif f"{func.name}.deleter" in refs:
            call = f"del obj.{func.name}"
    statement = _runs_body(kind, call)
    if statement is None:
        return None
    imports = [import_line, *(["import asyncio"] if statement.startswith("asyncio.") else [])]
    if func.cls is not None and not constructor:
        statement = f"{statement}  # obj: a {short_name(func.cls)}"
    return imports, statement


def _guard_args(g: Gathered, entry: EntryPoint) -> list[str] | None:
    """The entry point's parameters the site's conditions read (passed on unchanged), to
    pass by keyword: ``obj.seed()`` leaves ``a`` at its default, which never raises. None
    when a generator or coroutine on the way is used in a way :mod:`.lazy_chain` does not
    read: whether the entry point's call runs the raise is not known (``iter_content``)."""
    func = g.func
    if func is None:
        return []
    if g.lazy.get(entry["qualname"], GENERATOR) not in LAZY:  # unknown, or perhaps not reached
        return None
    passes = dict(entry.get("passes") or {})
    if entry.get("depth", 0) == 0:  # its own parameters, rebound later or not
        passes.update({p: p for p in own_params(func)})
    return sorted({passes[n] for n in _read_by(g.site.guards) if n in passes})


def _surfaced_import(g: Gathered, entry: EntryPoint) -> tuple[str, str | None] | None:
    """(class, import line) of the class a converting handler on the way raises; None
    when where it comes from is not known (a dotted name, another module's handler)."""
    written = str(entry.get("surfacesAs") or "")
    if not written or "." in written:
        return None
    if written in dir(builtins):
        return written, None
    entry_func = g.entry_funcs.get(entry["qualname"])
    converter = str(entry.get("convertedIn") or "")
    if entry_func is None or _private_path(entry_func.module):
        return None
    if not converter.startswith(entry_func.module + "."):
        return None
    return written, f"from {entry_func.module} import {written}"


def _comment(text: str) -> str:
    """A message on one comment line: a newline in it would end the comment."""
    return " ".join(text.split())[:80]


def well_formed(snippet: str) -> bool:
    """``snippet`` compiles and the names its handlers catch are builtins or imported."""
    try:
        tree = ast.parse(snippet)
        compile(tree, "<tryCatchPattern>", "exec")
    except (SyntaxError, ValueError):
        return False
    known = set(dir(builtins))
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            known.update((a.asname or a.name).partition(".")[0] for a in node.names)
    for node in ast.walk(tree):
        if isinstance(node, ast.ExceptHandler) and node.type is not None:
            names = {n.id for n in ast.walk(node.type) if isinstance(n, ast.Name)}
            if not names <= known:
                return False
    return True


def _reaching(
    g: Gathered, entry: EntryPoint, func: FuncFacts
) -> tuple[str, list[str], str, bool] | None:
    """(class to catch, import lines, the call, whether the class is a conversion) for a
    handler around ``entry``'s call; None when no such call reaches the raise."""
    s = g.site
    imports = ["import warnings"] if s.kind == "warn" else []
    cls = s.error_class or ""
    surfaces = str(entry.get("surfacesAs") or "")
    converted = bool(surfaces) and short_name(surfaces) != cls and s.kind != "warn"
    if converted:
        surfaced = _surfaced_import(g, entry)
        if surfaced is None:
            return None
        cls, cls_import = surfaced
    else:
        cls_import = _class_import(g)
    if cls_import:
        if _private_path(cls_import.split()[1]):
            return None
        imports.append(cls_import)
    extra = _guard_args(g, entry)
    gate = _gate_value(entry, func)
    if extra is None or isinstance(gate, bool):
        return None
    if gate is not None:
        extra = [*extra, gate[0]]
    # absent: the call runs it, unless the entry point is itself a generator (a record
    # analysed without the chain's facts)
    reached = _entry_call(func, extra, g.lazy.get(entry["qualname"], own_kind(func)))
    if reached is None:
        return None
    entry_imports, call = reached
    if gate is not None:  # ``fallback=fallback`` -> ``fallback=False``
        name, value = gate
        if f"{name}={name}" not in call:
            return None
        call = call.replace(f"{name}={name}", f"{name}={value}", 1)
    return cls, [*imports, *entry_imports], call, converted


def _gate_value(entry: EntryPoint, func: FuncFacts) -> tuple[str, bool] | bool | None:
    """(parameter, value) the entry point's call must pass for a handler on the way to
    re-raise (``if not fallback: raise`` in the entry point itself: ``fallback=False``);
    None when no handler needs one; False (the only bool it returns) when one does and no
    such value is known."""
    condition = entry.get("reraisedWhen")
    if not condition:
        return None
    if entry.get("reraisedIn") != entry["qualname"]:
        return False
    negated = condition.startswith("not ")
    name = condition[4:].strip() if negated else condition.strip()
    if not name.isidentifier() or name not in own_params(func):
        return False
    return name, not negated


#: Families no handler should be written for: a failed internal check (``assert``,
#: ``AssertionError``) is a bug to fix, and an ``assert`` is not even run under
#: ``python -O``, so a handler that relies on it is wrong there; a wrong call (a
#: ``TypeError``, a missing attribute, a method called on an object in the wrong state:
#: closed, already running) is fixed in the calling code, not caught.
BUG_FAMILIES = frozenset(
    {"internal-assertion", "type-mismatch", "missing-attribute", "invalid-state"}
)
#: The builtin classes of those families, for a site whose tag no rule gave.
BUG_CLASSES = frozenset(
    {"builtins.AssertionError", "builtins.TypeError", "builtins.AttributeError"}
)


def programming_error(g: Gathered) -> bool:
    """A mistake in the calling code or a failed internal check, by family or class:
    catching it is the wrong advice (fix the call instead)."""
    canonical = g.site.canonical_class or (
        f"builtins.{g.site.error_class}" if g.site.error_class else ""
    )
    return g.site.kind == "assert" or g.background[0] in BUG_FAMILIES or canonical in BUG_CLASSES


def unbound_names(snippet: str, shadowed: frozenset[str] = frozenset()) -> set[str]:
    """Names the snippet reads that nothing in it binds: run alone, it raises ``NameError``
    at the first (``obj.seed(a=a)`` with neither ``obj`` nor ``a``). A builtin counts as
    bound unless it is in ``shadowed``: the called function's parameter ``input`` or
    ``object`` passed by its own name is no builtin. A handler's ``as exc`` binds only
    inside that handler (``format_exception(exc)`` in the ``try`` does not see it)."""
    tree = ast.parse(snippet)
    bound = set(dir(builtins)) - shadowed
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            bound.update((a.asname or a.name).partition(".")[0] for a in node.names)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            bound.add(node.id)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
    used: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.ExceptHandler):
            if node.type is not None:
                visit(node.type)  # its body reads the name it binds
            return
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            used.add(node.id)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return used - bound


def try_catch(g: Gathered) -> tuple[str | None, list[str], str | None]:
    """(pattern, basis, scaffold): a handler around the nearest public entry point's call,
    for the class that call lets out (the converted one, where a handler on the way raises
    another). It is shown only when it is well formed (it compiles, the class it catches
    is imported from a public path, the call runs the body that raises) and every name
    it reads is bound in it, so it runs alone; one whose call reads names it does not
    bind (the call's arguments, the object a method is called on) is only the scaffold
    ``errdex verify`` runs a verified reproducer in. None of the three for a programming
    error: catching it is no advice (``handlingStrategy`` says what is); nor for an
    exception a generator yields: the call that reaches the ``yield`` hands it over, and
    whether it is raised is the consumer's choice, so a handler there may catch nothing."""
    s = g.site
    if not s.error_class or programming_error(g) or s.kind == "yield":
        return None, [], None
    for entry, func in _ranked_entries(g):
        found = _reaching(g, entry, func)
        if found is not None:
            break
    else:
        return None, [], None
    cls, imports, call, converted = found
    basis = ["errorClass", "site.template", "entryPoints"]
    lines: list[str] = [*dict.fromkeys(imports), ""]
    anchor = None if converted else _anchor(g)
    shown = _comment(s.template.display)
    if s.kind == "warn":
        lines += [
            "with warnings.catch_warnings(record=True) as caught:",
            f'    warnings.simplefilter("always", {cls})',
            f"    {call}",
        ]
        check = f"{anchor!r} in str(w.message)" if anchor else f"issubclass(w.category, {cls})"
        lines += [f"if any({check} for w in caught):", "    ...  # handle the warning"]
    else:
        lines += ["try:", f"    {call}", f"except {cls} as exc:"]
        if converted:
            lines.append(
                f"    # {s.error_class} surfaces as {cls}: the handler at line "
                f"{entry.get('convertedLine')} of {entry.get('convertedIn')} raises it instead"
            )
            lines.append("    ...  # handle it")
        elif anchor:
            lines += [f"    if {anchor!r} not in str(exc):", "        raise"]
            lines.append(f"    ...  # handle: {shown}")
        elif s.template.is_empty:
            lines.append(
                "    ...  # handle it: raised without a message, the class is the whole check"
            )
        elif s.template.is_opaque:
            lines.append("    # the message is built at run time; no fixed text to check")
            lines.append(f"    ...  # handle: {shown}")
        else:
            lines.append(f"    # too little fixed text to check in {shown!r}")
            lines.append("    ...  # handle it")
    snippet = "\n".join(lines).strip("\n")
    if not well_formed(snippet):
        return None, [], None
    if unbound_names(snippet, frozenset({"obj", *(p.lstrip("*") for p in func.params)})):
        return None, [], snippet
    return snippet, basis, None


_ELLIPSIS_BODY = re.compile(r"^\s+\.\.\.\s*(#.*)?$", re.M)


def is_scaffold(code: str | None) -> bool:
    """Whether a snippet's body is a ``...`` placeholder: it cannot run as it stands, so it is
    kept in ``evidence.provenance`` (where ``errdex verify`` fills it) instead of shown."""
    return code is not None and _ELLIPSIS_BODY.search(code) is not None


def _called_by_code(g: Gathered) -> bool:
    """The raising function is itself public and a library call, not a program's command
    line (which reads ``sys.argv`` or exits rather than return: ``script_mains``)."""
    return (
        g.func is not None
        and g.func.command_line is None
        and any(e.get("depth") == 0 for e in g.entry_points)
    )


def validation(g: Gathered) -> tuple[str | None, list[str]]:
    """A check over the raising function's parameters, when it is itself public; none when
    a condition reads one the body binds again before the raise (:func:`rebound_before`)."""
    func = g.func
    s = g.site
    if func is None or not s.guards or any(x["kind"] not in CONDITION_KINDS for x in s.guards):
        return None, []
    if s.kind == "assert":
        return None, []
    if not _called_by_code(g):
        return None, []
    # a parameter the body binds again before the raise is not the caller's value there
    params = {p.lstrip("*") for p in func.params} - {"self", "cls"}
    if params & rebound_before(func, s.line, s.guards) & _read_by(s.guards):
        return None, []
    imports: list[str] = []
    for guard in s.guards:
        names = free_names(guard["text"])
        if names is None:
            return None, []
        for name in names:
            if name in params:
                continue
            if name in g.import_lines:
                imports.append(g.import_lines[name])
                continue
            return None, []
    texts = [x["text"] for x in s.guards]
    condition = " and ".join(f"({t})" for t in texts) if len(texts) > 1 else texts[0]
    used = set().union(*(free_names(t) or set() for t in texts))
    _, call = _call(func, extra=[p for p in func.params if p.lstrip("*") in used])
    lines = [*dict.fromkeys(imports)]
    if lines:
        lines.append("")
    lines += [
        f"# {callable_name(func)} {verb(g, with_object=True)} {s.error_class or 'an exception'} at "
        f"{location(s.path, s.line)} when this holds:",
        f"if {condition}:",
        f"    ...  # change the arguments before calling {call}",
    ]
    return "\n".join(lines), ["site.guards", "function", "entryPoints"]


def _read_by(guards: list[GuardItem]) -> set[str]:
    """The names the conditions among ``guards`` read."""
    names: set[str] = set()
    for guard in guards:
        if guard["kind"] in CONDITION_KINDS:
            names |= free_names(str(guard["text"])) or set()
    return names


def _all_names(text: str) -> set[str]:
    """Every name a condition reads, builtins' names included."""
    node = parse_guard(text)
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} if node is not None else set()


def _type_names(text: str) -> set[str]:
    """Names read only as the classes an ``isinstance``/``issubclass`` test names: the
    condition's types, not values the caller passes."""
    node = parse_guard(text)
    if node is None:
        return set()
    in_types: set[str] = set()
    elsewhere: set[str] = set()
    stack: list[tuple[ast.AST, bool]] = [(node, False)]
    while stack:
        sub, typed = stack.pop()
        if isinstance(sub, ast.Name):
            (in_types if typed else elsewhere).add(sub.id)
        is_test = (
            isinstance(sub, ast.Call)
            and isinstance(sub.func, ast.Name)
            and sub.func.id in ("isinstance", "issubclass")
            and len(sub.args) == 2
        )
        for child in ast.iter_child_nodes(sub):
            stack.append((child, typed or (is_test and child is sub.args[1])))  # type: ignore[attr-defined]
    return in_types - elsewhere


def type_guard(g: Gathered) -> tuple[str | None, list[str]]:
    """An isinstance check over a parameter of the raising function, when callers can call
    it, stated with every condition on the way to the raise: ``if content is not None and
    not isinstance(content, str)``, not ``if not isinstance(content, str)``, which ``None``
    passes without a raise. None when a condition reads anything but the function's
    parameters, builtins and imported modules (a flag, the object's state, a handler's
    error), or a parameter the body binds before the raise (:func:`rebound_before`:
    ``Popen``'s ``if bufsize is None: bufsize = -1``)."""
    func = g.func
    s = g.site
    if func is None or not _called_by_code(g):
        return None, []
    if not s.guards or any(x["kind"] not in CONDITION_KINDS for x in s.guards):
        return None, []
    params = {p.lstrip("*") for p in func.params} - {"self", "cls"}
    bound = rebound_before(func, s.line, s.guards)  # a local named ``object`` is no builtin
    params -= bound
    texts = [str(x["text"]) for x in s.guards]
    for text in texts:
        names = free_names(text)
        if names is None or not names - _type_names(text) <= params | set(g.import_lines):
            return None, []
        if _all_names(text) & bound:
            return None, []
    checks = [
        (subject, types, positive)
        for text in reversed(texts)
        for subject, types, positive in isinstance_checks(text)
        if re.split(r"[.\[(]", subject, maxsplit=1)[0] in params
    ]
    if not checks:
        return None, []
    subject, types, positive = checks[0]  # the one closest to the raise
    condition = " and ".join(f"({t})" for t in texts) if len(texts) > 1 else texts[0]
    return (
        f"# {callable_name(func)} {verb(g, with_object=True)} {s.error_class or 'an exception'} "
        "when this holds "
        f"({location(s.path, s.line)}):\nif {condition}:\n"
        f"    ...  # pass {subject} as an instance of {types}"
        + (" only if that is intended" if positive else ""),
        ["site.guards", "function"],
    )


def example_fix(g: Gathered) -> tuple[str | None, list[str]]:
    """Only where the message gives a before and an after ("use X instead of Y")."""
    if g.site.template.is_opaque:
        return None, []
    for run in g.site.template.literals:
        m = _INSTEAD.search(run)
        if m is None:
            continue
        before = m.group("before") or m.group("before2")
        after = m.group("after") or m.group("after2")
        if before and after:
            return (
                f"// before\n{before.strip('`' + chr(39))}\n// after\n{after.strip('`' + chr(39))}",
                ["site.template"],
            )
    return None, []
