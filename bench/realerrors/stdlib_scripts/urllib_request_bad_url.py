import urllib.request
urllib.request.urlopen('example.com/index.html')
