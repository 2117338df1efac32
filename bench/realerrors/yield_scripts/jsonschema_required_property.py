# ruff: noqa  (misuse on purpose: users write code like this)
# made at: jsonschema/_keywords.py:309
import jsonschema

jsonschema.validate({}, {"required": ["name"]})
