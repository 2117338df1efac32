# ruff: noqa  (misuse on purpose: users write code like this)
# made at: jsonschema/validators.py:372
import jsonschema

jsonschema.validate(1, False)
