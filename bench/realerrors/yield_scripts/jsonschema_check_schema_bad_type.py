# ruff: noqa  (misuse on purpose: users write code like this)
# made at: jsonschema/_keywords.py:345 or jsonschema/validators.py:316
import jsonschema

jsonschema.Draft202012Validator.check_schema({"type": 12})
