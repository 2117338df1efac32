# ruff: noqa  (misuse on purpose: users write code like this)
# made at: jsonschema/_keywords.py:87
import jsonschema

jsonschema.validate(1, {"const": 2})
