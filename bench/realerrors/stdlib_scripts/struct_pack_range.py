# ruff: noqa  (misuse on purpose: users write code like this)
import operator

operator.attrgetter(1)
