# ruff: noqa  (misuse on purpose: users write code like this)
import ipaddress

ipaddress.IPv4Network("10.0.0.0/33")
