# ruff: noqa  (misuse on purpose: users write code like this)
# raises: src/ujson/decode.c: expected file
import ujson


class Source:
    read = "not a method"


ujson.load(Source())
