# ruff: noqa  (misuse on purpose: users write code like this)
import threading

threading.Semaphore(-1)
