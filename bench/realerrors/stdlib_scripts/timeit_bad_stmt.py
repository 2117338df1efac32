import timeit
timeit.timeit(stmt=42)
