# ruff: noqa  (misuse on purpose: users write code like this)
import queue

queue.Queue().get_nowait()
