# ruff: noqa  (misuse on purpose: users write code like this)
import random

random.sample(range(3), 5)
