# ruff: noqa  (misuse on purpose: users write code like this)
# raises: src/lxml/parser.pxi:1990
from lxml import etree

etree.fromstring("<?xml version='1.0' encoding='utf-8'?><a/>")
