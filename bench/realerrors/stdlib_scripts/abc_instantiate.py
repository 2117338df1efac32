import abc
class B(abc.ABC):
    @abc.abstractmethod
    def run(self): ...
B()
