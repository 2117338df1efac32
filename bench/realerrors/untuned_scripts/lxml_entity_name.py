# ruff: noqa  (misuse on purpose: users write code like this)
# raises: src/lxml/etree.pyx:3190
from lxml import etree

etree.Entity("&a")
