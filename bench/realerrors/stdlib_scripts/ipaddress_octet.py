import ipaddress
ipaddress.IPv4Address('1.2.3.04a')
