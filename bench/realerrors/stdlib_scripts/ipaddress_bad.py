# ruff: noqa  (misuse on purpose: users write code like this)
import ipaddress

ipaddress.ip_address("300.1.1.1")
