# ruff: noqa  (misuse on purpose: users write code like this)
import http.client

http.client.HTTPConnection("example.com:notaport")
