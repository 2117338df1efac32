# ruff: noqa  (misuse on purpose: users write code like this)
import urllib.request

urllib.request.urlopen("example.com/index.html")
