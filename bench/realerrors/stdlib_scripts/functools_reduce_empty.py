import functools, operator
functools.reduce(operator.add, [])
