# ruff: noqa  (misuse on purpose: users write code like this)
# raises: rapidjson.cpp:620
import rapidjson

rapidjson.loads("1", number_mode=-5)
