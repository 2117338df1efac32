# ruff: noqa  (misuse on purpose: users write code like this)
import random

random.randrange(5, 5)
