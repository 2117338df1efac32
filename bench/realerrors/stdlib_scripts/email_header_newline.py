# ruff: noqa  (misuse on purpose: users write code like this)
from email.message import EmailMessage

m = EmailMessage()
m["Subject"] = "hi\nBcc: x@y"
m.as_string()
