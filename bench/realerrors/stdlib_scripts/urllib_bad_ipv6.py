# ruff: noqa  (misuse on purpose: users write code like this)
from urllib.parse import urlsplit

urlsplit("http://[::1/path")
