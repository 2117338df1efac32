import string
string.Formatter().format('{0} {1}', 'a')
