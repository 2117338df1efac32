# ruff: noqa  (misuse on purpose: users write code like this)
import ipaddress

ipaddress.IPv4Address("1.2.3.04a")
