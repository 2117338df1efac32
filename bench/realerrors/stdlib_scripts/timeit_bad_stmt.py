# ruff: noqa  (misuse on purpose: users write code like this)
import timeit

timeit.timeit(stmt=42)
