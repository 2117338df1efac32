import tarfile, io
tarfile.open(fileobj=io.BytesIO(b'garbage' * 100))
