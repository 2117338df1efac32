# ruff: noqa  (misuse on purpose: users write code like this)
import yaml

yaml.load("a: *missing", Loader=yaml.CLoader)
