# ruff: noqa  (misuse on purpose: users write code like this)
import tempfile

tempfile.mkstemp(dir="/nonexistent/dir")
