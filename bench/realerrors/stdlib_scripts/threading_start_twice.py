# ruff: noqa  (misuse on purpose: users write code like this)
import threading

t = threading.Thread(target=lambda: None)
t.start()
t.start()
