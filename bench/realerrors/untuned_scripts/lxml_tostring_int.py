# ruff: noqa  (misuse on purpose: users write code like this)
# raises: src/lxml/etree.pyx:3513
from lxml import etree

etree.tostring(1)
