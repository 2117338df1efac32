# ruff: noqa  (misuse on purpose: users write code like this)
import json

json.dumps({"when": object()})
