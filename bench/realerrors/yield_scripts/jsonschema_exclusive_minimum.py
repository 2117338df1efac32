# ruff: noqa  (misuse on purpose: users write code like this)
# made at: jsonschema/_keywords.py:132
import jsonschema

jsonschema.validate(1, {"exclusiveMinimum": 1})
