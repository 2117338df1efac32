# ruff: noqa  (misuse on purpose: users write code like this)
from fractions import Fraction

Fraction(1, 0)
