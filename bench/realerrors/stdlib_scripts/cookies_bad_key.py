from http import cookies
c = cookies.SimpleCookie()
c['bad key'] = 'v'
