# ruff: noqa  (misuse on purpose: users write code like this)
import json

json.loads('{"a": 1,}')
