# ruff: noqa  (misuse on purpose: users write code like this)
# raises: src/ujson/encode.c: toDict() should return a dict
import ujson


class Config:
    def toDict(self):
        return 42


ujson.dumps(Config())
