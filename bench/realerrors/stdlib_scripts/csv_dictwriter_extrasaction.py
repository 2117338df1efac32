import csv, io
csv.DictWriter(io.StringIO(), fieldnames=['a'], extrasaction='skip')
