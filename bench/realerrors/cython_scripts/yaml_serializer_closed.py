# ruff: noqa  (misuse on purpose: users write code like this)
import io

import yaml

dumper = yaml.CDumper(io.StringIO())
dumper.open()
dumper.close()
dumper.serialize(yaml.ScalarNode("tag:yaml.org,2002:str", "x"))
