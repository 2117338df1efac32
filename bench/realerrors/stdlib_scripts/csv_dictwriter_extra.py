# ruff: noqa  (misuse on purpose: users write code like this)
import csv, io

w = csv.DictWriter(io.StringIO(), fieldnames=["a", "b"])
w.writerow({"a": 1, "c": 2})
