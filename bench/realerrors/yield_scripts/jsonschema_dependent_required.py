# ruff: noqa  (misuse on purpose: users write code like this)
# made at: jsonschema/_keywords.py:254
import jsonschema

jsonschema.validate({"a": 1}, {"dependentRequired": {"a": ["b"]}})
