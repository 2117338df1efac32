# ruff: noqa  (misuse on purpose: users write code like this)
# made at: jsonschema/_keywords.py:287 or jsonschema/validators.py:316
import jsonschema

jsonschema.Draft7Validator.check_schema({"minimum": "five"})
