# ruff: noqa  (misuse on purpose: users write code like this)
# raises: rapidjson.cpp:2452
import rapidjson

rapidjson.dumps(float("nan"), number_mode=rapidjson.NM_NONE)
