# ruff: noqa  (misuse on purpose: users write code like this)
import textwrap

textwrap.wrap("hello world", width=0)
