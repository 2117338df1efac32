"""What following a message's builder gives a raise (see :mod:`.builders`): the message
an exception built elsewhere prints, or that the repository builds it in a way not followed."""

from __future__ import annotations

from dataclasses import dataclass, field

from .messages import Templates

__all__ = ["Built", "Unfollowed"]


@dataclass
class Built:
    """What a raise raises when its exception is built elsewhere."""

    qualified: str
    templates: Templates
    notes: list[str]
    #: Said beside the derivation: what was left out of the templates, and why.
    remarks: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Unfollowed:
    """The repository's ``__init__``/``__str__`` builds the message, in a way not followed."""

    builder: str
