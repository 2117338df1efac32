# ruff: noqa  (misuse on purpose: users write code like this)
# raises: rapidjson.cpp:3005
import rapidjson

rapidjson.dumps({1: 2})
