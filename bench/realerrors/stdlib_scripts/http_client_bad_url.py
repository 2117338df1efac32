import http.client
http.client.HTTPConnection('example.com:notaport')
