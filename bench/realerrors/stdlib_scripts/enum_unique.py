# ruff: noqa  (misuse on purpose: users write code like this)
import enum


@enum.unique
class Color(enum.Enum):
    RED = 1
    CRIMSON = 1
