# ruff: noqa  (misuse on purpose: users write code like this)
# raises: src/lxml/etree.pyx:3135
from lxml import etree

etree.ProcessingInstruction("xml")
