# ruff: noqa  (misuse on purpose: users write code like this)
from string import Template

Template("cost: $").substitute(x=1)
