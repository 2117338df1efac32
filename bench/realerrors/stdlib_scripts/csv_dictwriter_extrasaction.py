# ruff: noqa  (misuse on purpose: users write code like this)
import csv, io

csv.DictWriter(io.StringIO(), fieldnames=["a"], extrasaction="skip")
