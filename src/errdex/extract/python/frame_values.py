"""The values a followed call carries (see :mod:`.frames`): text, a class passed as an
argument, ``*args`` and ``**kwargs``, ``None``; the instance a method runs on; and the
signals that end a chain (a ``return`` in an ``__init__``, a statement not followed)."""

from __future__ import annotations

from dataclasses import dataclass, field

from errdex.template import MessageTemplate

from .hierarchy import ClassRef

__all__ = [
    "NONE",
    "STOP",
    "Args",
    "ClassValue",
    "Fail",
    "Kw",
    "NoneType",
    "SelfBinding",
    "Star",
    "Stop",
    "Text",
    "Value",
]


@dataclass(frozen=True)
class Text:
    template: MessageTemplate
    #: The value is an exception an ``except … as name`` caught: its ``str()`` is the hole.
    caught: bool = False
    #: The value is surely not None (``self``, ``Option()``, ``"-" + name``), though its
    #: text is not known: ``if self.option is not None:`` of ``__str__`` is decided.
    not_none: bool = False


@dataclass(frozen=True)
class ClassValue:
    qualified: str


@dataclass(frozen=True)
class Star:
    items: tuple[Value, ...]


@dataclass(frozen=True)
class Kw:
    items: tuple[tuple[str, Value], ...]


class NoneType:
    pass


NONE = NoneType()
Value = Text | ClassValue | Star | Kw | NoneType


@dataclass
class Args:
    positional: list[Value] = field(default_factory=list)
    keywords: dict[str, Value] = field(default_factory=dict)


@dataclass
class SelfBinding:
    """The class ``self`` is an instance of while a method runs; ``used`` once it mattered."""

    ref: ClassRef
    used: bool = False
    #: Whether ``self`` is exactly ``ref`` (the raise constructs it), not maybe a subclass.
    exact: bool = False
    #: ``self.<name> = …`` seen while its ``__init__`` chain ran: what ``__str__`` reads.
    attrs: dict[str, MessageTemplate] = field(default_factory=dict)
    #: Whether that chain assigned ``self.args`` (which the builtin ``__str__`` prints).
    sets_args: bool = False
    #: Whether an ``__init__`` of the chain is running (attributes not yet all set).
    in_init: bool = False
    #: Attributes the chain set to None (``self.context = context`` with none given).
    nones: set[str] = field(default_factory=set)
    #: Attributes the chain set to what is surely not None (``OptionError(msg, self)``).
    not_nones: set[str] = field(default_factory=set)
    #: Attributes set differently on the ways through an ``if`` not decided: each text.
    choices: dict[str, list[MessageTemplate]] = field(default_factory=dict)
    #: A ``__str__`` return of the bare value, left out of the templates (see builders).
    left_out: str | None = None
    #: How many ``__str__`` returns were the message then more lines, left out beside it.
    longer: int = 0
    #: Every message the last base ``__init__`` call may set, when one of its arguments
    #: holds one of several texts (``msg`` reassigned on one way of an ``if``).
    messages: list[MessageTemplate] = field(default_factory=list)
    #: What the caller passed to the first ``__init__``, by parameter, where it is one
    #: value not known (``TemplateNotFound(template)``): a ``__str__`` printing such a
    #: parameter alone prints the caller's value (None until that ``__init__`` runs).
    given: dict[str, MessageTemplate] | None = None
    #: The arguments of the last base ``__init__`` call: ``self.args`` after the chain.
    base_args: Args | None = None

    def base_call(self, args: Args) -> None:
        """A base ``__init__`` is called with ``args``: what it sets replaces what was."""
        self.messages = []
        self.base_args = args


class Stop:
    """A ``return`` inside an ``__init__``: nothing after it runs."""


STOP = Stop()


class Fail(Exception):
    """A statement the chain cannot follow: the raise keeps its own account."""
