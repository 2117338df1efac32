# ruff: noqa  (misuse on purpose: users write code like this)
# raises: src/lxml/apihelpers.pxi:1530
from lxml import etree

root = etree.Element("root")
root.text = "a\x00b"
