import pprint
pprint.PrettyPrinter(width=0)
