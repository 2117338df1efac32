from http import cookies
m = cookies.Morsel()
m['colour'] = 'red'
