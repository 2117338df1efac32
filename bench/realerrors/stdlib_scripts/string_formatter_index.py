# ruff: noqa  (misuse on purpose: users write code like this)
import string

string.Formatter().format("{0} {1}", "a")
