# ruff: noqa  (misuse on purpose: users write code like this)
import smtplib

smtplib.SMTP().ehlo()
