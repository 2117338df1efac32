# ruff: noqa  (misuse on purpose: users write code like this)
import random

random.choices([1, 2], weights=[1])
