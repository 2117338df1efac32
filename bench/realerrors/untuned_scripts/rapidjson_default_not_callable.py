# ruff: noqa  (misuse on purpose: users write code like this)
# raises: rapidjson.cpp:3113
import rapidjson

rapidjson.dumps([], default=1)
