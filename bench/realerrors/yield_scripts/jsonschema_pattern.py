# ruff: noqa  (misuse on purpose: users write code like this)
# made at: jsonschema/_keywords.py:220
import jsonschema

jsonschema.validate("abc", {"pattern": "^[0-9]+$"})
