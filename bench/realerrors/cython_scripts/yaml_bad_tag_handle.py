# ruff: noqa  (misuse on purpose: users write code like this)
import yaml

yaml.dump({"a": 1}, Dumper=yaml.CDumper, tags={1: "tag:x"})
