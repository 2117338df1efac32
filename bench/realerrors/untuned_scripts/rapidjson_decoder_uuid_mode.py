# ruff: noqa  (misuse on purpose: users write code like this)
# raises: rapidjson.cpp:2264
import rapidjson

rapidjson.Decoder(uuid_mode="x")
