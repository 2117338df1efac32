# ruff: noqa  (misuse on purpose: users write code like this)
from concurrent.futures import ThreadPoolExecutor

e = ThreadPoolExecutor()
e.shutdown()
e.submit(print, 1)
