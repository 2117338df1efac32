# ruff: noqa  (misuse on purpose: users write code like this)
# raises: rapidjson.cpp:2094
import rapidjson

rapidjson.loads("[1, 2")
