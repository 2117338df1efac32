# ruff: noqa  (misuse on purpose: users write code like this)
# made at: jsonschema/_keywords.py:164
import jsonschema

jsonschema.validate(10, {"maximum": 5})
