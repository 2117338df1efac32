# ruff: noqa  (misuse on purpose: users write code like this)
import xml.etree.ElementTree as ET

ET.fromstring("<a><b></a>")
