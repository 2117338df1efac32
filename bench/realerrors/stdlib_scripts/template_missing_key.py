# ruff: noqa  (misuse on purpose: users write code like this)
from string import Template

Template("Hello $name").substitute({})
