import os, tempfile
d = tempfile.mkdtemp()
os.makedirs(d)
