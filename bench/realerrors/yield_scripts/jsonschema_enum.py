# ruff: noqa  (misuse on purpose: users write code like this)
# made at: jsonschema/_keywords.py:271
import jsonschema

jsonschema.validate("x", {"enum": ["a", "b"]})
