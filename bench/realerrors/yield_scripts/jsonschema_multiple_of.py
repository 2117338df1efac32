# ruff: noqa  (misuse on purpose: users write code like this)
# made at: jsonschema/_keywords.py:191
import jsonschema

jsonschema.validate(7, {"multipleOf": 2})
