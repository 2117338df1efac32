# ruff: noqa  (misuse on purpose: users write code like this)
import graphlib

ts = graphlib.TopologicalSorter({"a": {"b"}, "b": {"a"}})
list(ts.static_order())
