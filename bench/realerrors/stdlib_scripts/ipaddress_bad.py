import ipaddress
ipaddress.ip_address('300.1.1.1')
