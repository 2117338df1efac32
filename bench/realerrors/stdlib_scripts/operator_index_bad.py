# ruff: noqa  (misuse on purpose: users write code like this)
import pickle


class A:
    def __reduce__(self):
        return 1


pickle.dumps(A(), protocol=0)
