# ruff: noqa  (misuse on purpose: users write code like this)
# made at: jsonschema/_keywords.py:212
import jsonschema

jsonschema.validate([1, 1], {"uniqueItems": True})
