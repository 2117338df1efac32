# ruff: noqa  (misuse on purpose: users write code like this)
import configparser

c = configparser.ConfigParser()
c.read_string("host = x\n")
