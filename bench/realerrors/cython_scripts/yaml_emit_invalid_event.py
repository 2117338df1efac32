# ruff: noqa  (misuse on purpose: users write code like this)
import yaml

yaml.emit([yaml.StreamStartEvent(), "oops"], Dumper=yaml.CDumper)
