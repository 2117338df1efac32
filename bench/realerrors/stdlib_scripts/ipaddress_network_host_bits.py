# ruff: noqa  (misuse on purpose: users write code like this)
import ipaddress

ipaddress.ip_network("192.168.1.5/24")
