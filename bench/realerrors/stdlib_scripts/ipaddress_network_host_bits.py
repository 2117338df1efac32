import ipaddress
ipaddress.ip_network('192.168.1.5/24')
