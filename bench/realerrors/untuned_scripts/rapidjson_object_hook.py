# ruff: noqa  (misuse on purpose: users write code like this)
# raises: rapidjson.cpp:1643
import rapidjson

rapidjson.loads("{}", object_hook=1)
