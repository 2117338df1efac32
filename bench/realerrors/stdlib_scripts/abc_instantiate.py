# ruff: noqa  (misuse on purpose: users write code like this)
import abc


class B(abc.ABC):
    @abc.abstractmethod
    def run(self): ...


B()
