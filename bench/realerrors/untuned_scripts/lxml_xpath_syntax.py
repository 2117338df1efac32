# ruff: noqa  (misuse on purpose: users write code like this)
# raises: src/lxml/xpath.pxi:406
from lxml import etree

etree.XPath("//a[")
