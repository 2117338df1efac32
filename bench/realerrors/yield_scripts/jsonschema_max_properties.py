# ruff: noqa  (misuse on purpose: users write code like this)
# made at: jsonschema/_keywords.py:329
import jsonschema

jsonschema.validate({"a": 1, "b": 2}, {"maxProperties": 1})
