# ruff: noqa  (misuse on purpose: users write code like this)
# raises: src/lxml/etree.pyx:1910
from lxml import etree

etree.ElementTree().write("out.xml")
