from urllib.parse import urlsplit
urlsplit('http://[::1/path')
