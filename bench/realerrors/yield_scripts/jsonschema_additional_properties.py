# ruff: noqa  (misuse on purpose: users write code like this)
# made at: jsonschema/_keywords.py:56
import jsonschema

jsonschema.validate({"a": 1, "b": 2}, {"properties": {"a": {}}, "additionalProperties": False})
