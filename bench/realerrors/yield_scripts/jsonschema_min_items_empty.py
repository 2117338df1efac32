# ruff: noqa  (misuse on purpose: users write code like this)
# made at: jsonschema/_keywords.py:197
import jsonschema

jsonschema.validate([], {"minItems": 1})
