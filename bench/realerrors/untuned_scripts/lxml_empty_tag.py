# ruff: noqa  (misuse on purpose: users write code like this)
# raises: src/lxml/apihelpers.pxi:1689
from lxml import etree

etree.Element("")
