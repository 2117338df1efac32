# ruff: noqa  (misuse on purpose: users write code like this)
import textwrap

textwrap.shorten("hello world foo bar", width=3, placeholder=" [...]")
