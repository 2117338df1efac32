# ruff: noqa  (misuse on purpose: users write code like this)
import yaml

yaml.load("a: 1\n---\nb: 2\n", Loader=yaml.CLoader)
