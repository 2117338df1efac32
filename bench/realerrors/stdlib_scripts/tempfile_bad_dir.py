import tempfile
tempfile.mkstemp(dir='/nonexistent/dir')
