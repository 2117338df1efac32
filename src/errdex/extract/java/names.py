"""Names as the JVM prints them: classes (``com.x.Outer$Inner``, ``Outer$1``) and methods
(``<init>``, ``<clinit>``, ``lambda$main$0``), and the classes a simple name refers to.

A stack trace names a frame by the binary name of its class and the name of the JVM
method it runs, so a site's qualname is written the same way: javac numbers anonymous
and local classes per enclosing class in source order (``Outer$1``, ``Outer$1Local``)
and lambdas per class in post-order (a lambda's nested lambdas come first).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

import tree_sitter

from .syntax import Node, language, text

__all__ = [
    "JAVA_LANG",
    "Namer",
    "Unit",
    "enclosing_class",
    "enclosing_method",
    "is_class_node",
    "member_name",
]

#: The exceptions and errors of ``java.lang``, which need no import.
JAVA_LANG = frozenset(
    [
        "Throwable",
        "Exception",
        "RuntimeException",
        "Error",
        "IllegalArgumentException",
        "IllegalStateException",
        "NullPointerException",
        "UnsupportedOperationException",
        "IndexOutOfBoundsException",
        "ArrayIndexOutOfBoundsException",
        "StringIndexOutOfBoundsException",
        "ClassCastException",
        "ArithmeticException",
        "NumberFormatException",
        "ArrayStoreException",
        "NegativeArraySizeException",
        "CloneNotSupportedException",
        "InterruptedException",
        "ReflectiveOperationException",
        "ClassNotFoundException",
        "NoSuchFieldException",
        "NoSuchMethodException",
        "InstantiationException",
        "IllegalAccessException",
        "SecurityException",
        "IllegalMonitorStateException",
        "IllegalCallerException",
        "EnumConstantNotPresentException",
        "TypeNotPresentException",
        "LayerInstantiationException",
        "IllegalThreadStateException",
        "MatchException",
        "WrongThreadException",
        "AssertionError",
        "OutOfMemoryError",
        "StackOverflowError",
        "InternalError",
        "LinkageError",
        "NoClassDefFoundError",
        "ExceptionInInitializerError",
        "VirtualMachineError",
        "UnsatisfiedLinkError",
        "IncompatibleClassChangeError",
        "AbstractMethodError",
        "NoSuchFieldError",
        "NoSuchMethodError",
        "ClassFormatError",
        "UnsupportedClassVersionError",
        "VerifyError",
        "BootstrapMethodError",
        "ClassCircularityError",
        "IllegalAccessError",
        "InstantiationError",
        "UnknownError",
        "ThreadDeath",
    ]
)

#: Well-known exceptions of packages often imported with ``.*``.
_ON_DEMAND: dict[str, frozenset[str]] = {
    "java.util": frozenset(
        [
            "NoSuchElementException",
            "ConcurrentModificationException",
            "MissingResourceException",
            "InputMismatchException",
            "EmptyStackException",
            "IllegalFormatException",
            "UnknownFormatConversionException",
            "MissingFormatArgumentException",
        ]
    ),
    "java.io": frozenset(
        [
            "IOException",
            "UncheckedIOException",
            "FileNotFoundException",
            "EOFException",
            "InterruptedIOException",
            "NotSerializableException",
            "InvalidObjectException",
        ]
    ),
    "java.util.concurrent": frozenset(
        [
            "ExecutionException",
            "TimeoutException",
            "CancellationException",
            "CompletionException",
            "RejectedExecutionException",
            "BrokenBarrierException",
        ]
    ),
}

TYPE_DECLARATIONS = frozenset(
    {
        "class_declaration",
        "interface_declaration",
        "enum_declaration",
        "record_declaration",
        "annotation_type_declaration",
    }
)


@dataclass
class Unit:
    """What one compilation unit declares and imports."""

    package: str = ""
    imports: dict[str, str] = field(default_factory=dict)  # simple name -> qualified
    on_demand: list[str] = field(default_factory=list)  # packages imported with ``.*``
    static_imports: dict[str, str] = field(default_factory=dict)  # member -> its class
    static_on_demand: list[str] = field(default_factory=list)  # classes imported with ``.*``
    #: binary names of the classes this file declares, by the name the source writes
    declared: dict[str, str] = field(default_factory=dict)
    #: the method names each class declares, by the class's start byte (a bare call's owner)
    methods: dict[int, set[str]] = field(default_factory=dict)
    binaries: dict[int, str] = field(default_factory=dict)  # class start byte -> binary name
    #: the constructors of each class this file declares, by binary name
    constructors: dict[str, list[Node]] = field(default_factory=dict)

    @classmethod
    def read(cls, root: Node) -> Unit:
        unit = cls()
        for child in root.named_children:
            if child.type == "package_declaration":
                named = [c for c in child.named_children if c.type != "annotation"]
                unit.package = text(named[0]) if named else ""
            elif child.type == "import_declaration":
                unit._import(child)
        for child in root.named_children:
            if child.type in TYPE_DECLARATIONS:
                unit._declare(child, unit.package + "." if unit.package else "")
        return unit

    def _import(self, node: Node) -> None:
        is_static = any(c.type == "static" for c in node.children)
        star = any(c.type == "asterisk" for c in node.children)
        names = [c for c in node.named_children if c.type in ("scoped_identifier", "identifier")]
        if not names:
            return
        dotted = text(names[0])
        if is_static:
            if star:
                self.static_on_demand.append(dotted)
            else:
                owner, _, member = dotted.rpartition(".")
                self.static_imports[member] = owner
        elif star:
            self.on_demand.append(dotted)
        else:
            self.imports[dotted.rpartition(".")[2]] = dotted

    def _declare(self, node: Node, prefix: str) -> None:
        name = text(node.child_by_field_name("name"))
        binary = prefix + name
        self.declared.setdefault(name, binary)
        body = node.child_by_field_name("body")
        if body is None:
            return
        for member in _members(body):
            if member.type in TYPE_DECLARATIONS:
                self._declare(member, binary + "$")
            elif member.type == "method_declaration":
                name = text(member.child_by_field_name("name"))
                self.methods.setdefault(node.start_byte, set()).add(name)
                self.binaries[node.start_byte] = binary
            elif member.type == "constructor_declaration":
                self.constructors.setdefault(binary, []).append(member)

    def qualify(self, written: str) -> str:
        """The qualified name of a class as the source writes it (``X``, ``Outer.In``,
        ``java.io.IOException``), by Java's rules: this file, single imports, java.lang,
        well-known on-demand imports, then this package."""
        head, dot, rest = written.partition(".")
        if head in self.declared:
            return self.declared[head] + ("$" + rest.replace(".", "$") if dot else "")
        if head in self.imports:
            return self.imports[head] + ("$" + rest.replace(".", "$") if dot else "")
        if dot and head[:1].islower():
            return written  # already qualified: java.io.IOException
        if not dot and written in JAVA_LANG:
            return "java.lang." + written
        for package in self.on_demand:
            if written in _ON_DEMAND.get(package, ()):
                return f"{package}.{written}"
        return (self.package + "." if self.package else "") + written.replace(".", "$")

    def bare_call_owners(self, method: str, call: Node) -> tuple[str, ...]:
        """The classes a call without a receiver may resolve to: an enclosing class that
        declares the method (it shadows any import), else a single static import, else
        every class imported with ``import static ….*``."""
        parent = call.parent
        while parent is not None:
            if parent.type in TYPE_DECLARATIONS and method in self.methods.get(
                parent.start_byte, ()
            ):
                return (self.binaries[parent.start_byte],)
            parent = parent.parent
        if method in self.static_imports:
            return (self.static_imports[method],)
        return tuple(self.static_on_demand)


def _members(body: Node) -> list[Node]:
    members = []
    for child in body.named_children:
        if child.type == "enum_body_declarations":
            members.extend(child.named_children)
        else:
            members.append(child)
    return members


def is_class_node(node: Node) -> bool:
    """A class of its own: a declaration, or an anonymous class's body."""
    if node.type in TYPE_DECLARATIONS:
        return True
    return (
        node.type == "class_body"
        and node.parent is not None
        and (node.parent.type in ("object_creation_expression", "enum_constant"))
    )


def enclosing_class(node: Node) -> Node | None:
    parent = node.parent
    while parent is not None and not is_class_node(parent):
        parent = parent.parent
    return parent


class Namer:
    """Binary names of one file's classes and JVM names of its lambdas (cached)."""

    def __init__(self, unit: Unit) -> None:
        self.unit = unit
        self._binary: dict[int, str] = {}
        self._locals: dict[int, list[Node]] = {}
        self._lambdas: dict[int, list[int]] = {}

    def binary(self, cls: Node) -> str:
        key = cls.id
        found = self._binary.get(key)
        if found is None:
            found = self._binary[key] = self._binary_of(cls)
        return found

    def _binary_of(self, cls: Node) -> str:
        outer = enclosing_class(cls)
        if outer is None:
            prefix = self.unit.package + "." if self.unit.package else ""
            return prefix + text(cls.child_by_field_name("name"))
        outer_name = self.binary(outer)
        if cls.type == "class_body":  # anonymous: Outer$1
            name = ""
        else:
            name = text(cls.child_by_field_name("name"))
            if _is_member(cls):
                return f"{outer_name}${name}"
        # local and anonymous classes: numbered per name, in source order
        number = 1 + sum(
            1
            for other in self._local_classes(outer)
            if other.start_byte < cls.start_byte and _local_name(other) == name
        )
        return f"{outer_name}${number}{name}"

    def _local_classes(self, outer: Node) -> list[Node]:
        found = self._locals.get(outer.id)
        if found is None:
            found = self._locals[outer.id] = [
                n
                for n in _under(outer, _class_query(), "class")
                if _is_local_class(n) and _same_class(n, outer)
            ]
        return found

    def lambda_number(self, lam: Node) -> int:
        cls = enclosing_class(lam)
        key = cls.id if cls is not None else -1
        order = self._lambdas.get(key)
        if order is None:
            root = cls if cls is not None else lam
            # post-order (nested lambdas first): by end, then the inner of two that end together
            lambdas = sorted(
                _under(root, _lambda_query(), "lambda"), key=lambda n: (n.end_byte, -n.start_byte)
            )
            order = self._lambdas[key] = [n.id for n in lambdas if _same_class(n, cls)]
        return order.index(lam.id) if lam.id in order else 0


def _same_class(node: Node, cls: Node | None) -> bool:
    found = enclosing_class(node)
    return (found.id if found is not None else None) == (cls.id if cls is not None else None)


def _is_member(cls: Node) -> bool:
    parent = cls.parent
    return parent is not None and parent.type in (
        "class_body",
        "interface_body",
        "enum_body_declarations",
        "annotation_type_body",
        "program",
    )


def _is_local_class(node: Node) -> bool:
    if node.type == "class_body":
        return is_class_node(node)
    return node.type in TYPE_DECLARATIONS and not _is_member(node)


def _local_name(node: Node) -> str:
    return "" if node.type == "class_body" else text(node.child_by_field_name("name"))


def _under(root: Node, query: tree_sitter.Query, capture: str) -> list[Node]:
    """The nodes under ``root`` (not itself) that ``query`` captures, found in C."""
    nodes = tree_sitter.QueryCursor(query).captures(root).get(capture, [])
    return [n for n in nodes if n.id != root.id]


@cache
def _class_query() -> tree_sitter.Query:
    kinds = " ".join(f"({kind})" for kind in sorted(TYPE_DECLARATIONS))
    return tree_sitter.Query(language(), f"[{kinds} (class_body)] @class")


@cache
def _lambda_query() -> tree_sitter.Query:
    return tree_sitter.Query(language(), "(lambda_expression) @lambda")


def enclosing_method(node: Node) -> tuple[Node | None, str]:
    """The member a node runs in and its JVM name: ``m``, ``<init>`` (constructors and
    instance initializers), ``<clinit>`` (static ones); None past the class."""
    parent = node.parent
    while parent is not None and not is_class_node(parent):
        name = member_name(parent, parent.type)
        if name is not None:
            return parent, name
        parent = parent.parent
    return None, "<clinit>"


def member_name(node: Node, kind: str) -> str | None:
    """The JVM name of the member ``node`` (of type ``kind``) is, or None when it is none."""
    if kind == "method_declaration":
        return text(node.child_by_field_name("name"))
    if kind in ("constructor_declaration", "compact_constructor_declaration"):
        return "<init>"
    if kind == "static_initializer":
        return "<clinit>"
    if kind == "field_declaration":
        mods = next((c for c in node.children if c.type == "modifiers"), None)
        static = mods is not None and "static" in text(mods).split()
        in_interface = node.parent is not None and node.parent.type == "interface_body"
        return "<clinit>" if static or in_interface else "<init>"
    if kind == "block" and node.parent is not None and is_class_node(node.parent):
        return "<init>"  # an instance initializer
    return None
