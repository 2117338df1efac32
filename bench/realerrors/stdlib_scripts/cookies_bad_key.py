# ruff: noqa  (misuse on purpose: users write code like this)
from http import cookies

c = cookies.SimpleCookie()
c["bad key"] = "v"
