# ruff: noqa  (misuse on purpose: users write code like this)
import statistics

statistics.mean([])
