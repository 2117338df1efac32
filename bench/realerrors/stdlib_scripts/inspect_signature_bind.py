import inspect
def f(a, b): pass
inspect.signature(f).bind(1)
