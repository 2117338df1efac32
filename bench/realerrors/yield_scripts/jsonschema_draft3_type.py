# ruff: noqa  (misuse on purpose: users write code like this)
# made at: jsonschema/_legacy_keywords.py:214
import jsonschema

jsonschema.Draft3Validator({"type": "string"}).validate(3)
