# ruff: noqa  (misuse on purpose: users write code like this)
import html.parser

html.parser.HTMLParser().feed(None)
