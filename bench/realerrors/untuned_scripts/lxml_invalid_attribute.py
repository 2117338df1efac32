# ruff: noqa  (misuse on purpose: users write code like this)
# raises: src/lxml/apihelpers.pxi:1741
from lxml import etree

root = etree.Element("root")
root.set("a b", "1")
