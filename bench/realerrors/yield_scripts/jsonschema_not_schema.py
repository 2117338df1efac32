# ruff: noqa  (misuse on purpose: users write code like this)
# made at: jsonschema/_keywords.py:379
import jsonschema

jsonschema.validate(1, {"not": {"type": "integer"}})
