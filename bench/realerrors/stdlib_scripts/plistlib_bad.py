# ruff: noqa  (misuse on purpose: users write code like this)
import plistlib

plistlib.loads(b"not a plist")
