# ruff: noqa  (misuse on purpose: users write code like this)
import xml.dom.minidom

xml.dom.minidom.parseString("<a")
