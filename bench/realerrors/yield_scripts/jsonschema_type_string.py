# ruff: noqa  (misuse on purpose: users write code like this)
# made at: jsonschema/_keywords.py:287
import jsonschema

jsonschema.validate(3, {"type": "string"})
