# ruff: noqa  (misuse on purpose: users write code like this)
# made at: jsonschema/_keywords.py:373
import jsonschema

jsonschema.validate(1, {"oneOf": [{"type": "integer"}, {"minimum": 0}]})
