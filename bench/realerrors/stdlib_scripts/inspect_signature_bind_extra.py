import inspect
def f(a): pass
inspect.signature(f).bind(1, 2, c=3)
