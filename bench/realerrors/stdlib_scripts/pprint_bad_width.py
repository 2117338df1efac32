# ruff: noqa  (misuse on purpose: users write code like this)
import pprint

pprint.PrettyPrinter(width=0)
