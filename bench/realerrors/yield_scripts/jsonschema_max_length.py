# ruff: noqa  (misuse on purpose: users write code like this)
# made at: jsonschema/_keywords.py:240
import jsonschema

jsonschema.validate("abcdef", {"maxLength": 3})
