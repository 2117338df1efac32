"""Both ways through an ``if`` of an ``__init__`` that the known values do not decide.

packaging's ``PylockValidationError.__init__`` takes a wrapped error's message and context
when the cause is one of its kind (``isinstance(cause, PylockValidationError)``) and the
cause's ``str()`` otherwise; a raise ``raise PylockValidationError(e, context=key)`` of a
caught ``e`` can be either. Each branch is run from the same state and the two ends are
joined: an attribute set the same way keeps its text, one set differently holds either
text (``SelfBinding.choices``), so ``__str__`` prints each.
"""

from __future__ import annotations

from dataclasses import dataclass

from errdex.template import MessageTemplate

from .frames import Frame, SelfBinding, Text, Value
from .messages import MAX_ALTERNATIVES
from .scope import Env, Fixed, merge_envs

__all__ = ["State", "join", "restore", "snapshot"]


@dataclass
class State:
    """What a branch may change: the frame's locals and what ``self`` holds."""

    values: dict[str, Value]
    env: Env
    attrs: dict[str, MessageTemplate]
    choices: dict[str, list[MessageTemplate]]
    nones: set[str]
    not_nones: set[str]
    sets_args: bool
    message: MessageTemplate | None


def snapshot(frame: Frame, binding: SelfBinding) -> State:
    return State(
        dict(frame.values),
        dict(frame.scope.env),
        dict(binding.attrs),
        {k: list(v) for k, v in binding.choices.items()},
        set(binding.nones),
        set(binding.not_nones),
        binding.sets_args,
        frame.message,
    )


def restore(frame: Frame, binding: SelfBinding, state: State) -> None:
    frame.values = dict(state.values)
    frame.scope.env = dict(state.env)
    binding.attrs = dict(state.attrs)
    binding.choices = {k: list(v) for k, v in state.choices.items()}
    binding.nones = set(state.nones)
    binding.not_nones = set(state.not_nones)
    binding.sets_args = state.sets_args
    frame.message = state.message


def _texts(state: State, attr: str) -> list[MessageTemplate] | None:
    """The texts an attribute holds at the end of a branch; None when it is not known."""
    if attr in state.choices:
        return state.choices[attr]
    if attr in state.attrs:
        return [state.attrs[attr]]
    return None


def join(frame: Frame, binding: SelfBinding, ends: list[State]) -> bool:
    """Leave in ``frame`` what holds after either branch; False when the branches cannot be
    joined (each set a different message through a base ``__init__``)."""
    first = ends[0]
    if any(end.message != first.message for end in ends[1:]):
        return False
    restore(frame, binding, first)
    for end in ends[1:]:
        dropped: set[str] = set()
        for name in set(end.values) | set(frame.values):
            one_way, other_way = frame.values.get(name), end.values.get(name)
            if one_way != other_way:
                frame.values.pop(name, None)
                if not all(v is None or isinstance(v, Text) for v in (one_way, other_way)):
                    # a class or ``*args`` on one way: not text the env could hold
                    frame.scope.env[name] = (Fixed(MessageTemplate.expression(name)),)
                    dropped.add(name)
        for name in set(end.env) | set(frame.scope.env):
            mine, theirs = frame.scope.env.get(name), end.env.get(name)
            if mine == theirs:
                continue
            if mine is not None and theirs is not None and name not in dropped:
                # ``msg = '%s at position %d' % (msg, pos)`` on one way: either text
                frame.scope.env[name] = merge_envs({name: mine}, {name: theirs})[name]
            else:
                frame.scope.env[name] = (Fixed(MessageTemplate.expression(name)),)
        binding.sets_args = binding.sets_args or end.sets_args
    binding.attrs, binding.choices = {}, {}
    for attr in set().union(*(set(e.attrs) | set(e.choices) for e in ends)):
        each = [_texts(end, attr) for end in ends]
        if any(texts is None for texts in each):
            continue  # unset on one way: what ``__str__`` reads then is not known
        held: list[MessageTemplate] = []
        for texts in each:
            assert texts is not None
            # two texts with the same pattern print the same: the first stands for both
            held.extend(t for t in texts if all(t.pattern != h.pattern for h in held))
        if len(held) == 1:
            binding.attrs[attr] = held[0]
        elif len(held) <= MAX_ALTERNATIVES:
            binding.choices[attr] = held
    binding.nones = set.intersection(*(end.nones for end in ends))
    binding.not_nones = set.intersection(*(end.not_nones for end in ends))
    return True
