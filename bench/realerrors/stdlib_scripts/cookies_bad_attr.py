# ruff: noqa  (misuse on purpose: users write code like this)
from http import cookies

m = cookies.Morsel()
m["colour"] = "red"
