# ruff: noqa  (misuse on purpose: users write code like this)
import time

time.strptime("2024", "%Q")
