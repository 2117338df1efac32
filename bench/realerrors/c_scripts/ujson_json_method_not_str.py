# ruff: noqa  (misuse on purpose: users write code like this)
# raises: src/ujson/encode.c: __json__() should return str or bytes
import ujson


class Money:
    def __json__(self):
        return 12.5


ujson.dumps(Money())
