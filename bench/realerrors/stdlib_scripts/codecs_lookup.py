# ruff: noqa  (misuse on purpose: users write code like this)
import codecs

codecs.lookup("utf-42")
