# ruff: noqa  (misuse on purpose: users write code like this)
# raises: rapidjson.cpp:1759
import rapidjson

rapidjson.load(1)
