# ruff: noqa  (misuse on purpose: users write code like this)
# raises: src/lxml/etree.pyx:3113
from lxml import etree

etree.Comment("a--b")
