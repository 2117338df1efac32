# ruff: noqa  (misuse on purpose: users write code like this)
# raises: src/lxml/etree.pyx:980
from lxml import etree

root = etree.Element("root")
root.remove(etree.Element("other"))
