# ruff: noqa  (misuse on purpose: users write code like this)
import copy


class A:
    __slots__ = ("x",)

    def __reduce_ex__(self, p):
        raise copy.Error("no")


copy.copy(A())
