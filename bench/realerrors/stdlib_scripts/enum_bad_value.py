# ruff: noqa  (misuse on purpose: users write code like this)
import enum


class Color(enum.Enum):
    RED = 1


Color(7)
