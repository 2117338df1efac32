# ruff: noqa  (misuse on purpose: users write code like this)
import ftplib

ftplib.parse227("227 nothing here")
