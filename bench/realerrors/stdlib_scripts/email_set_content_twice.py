# ruff: noqa  (misuse on purpose: users write code like this)
from email.message import EmailMessage

m = EmailMessage()
m.set_content("a")
m.add_attachment(b"x", maintype="application", subtype="octet-stream")
m.make_related()
