# ruff: noqa  (misuse on purpose: users write code like this)
# raises: src/lxml/xslt.pxi:412
from lxml import etree

etree.XSLT(etree.XML("<a/>"))
