# ruff: noqa  (misuse on purpose: users write code like this)
import yaml

yaml.load(42, Loader=yaml.CLoader)
