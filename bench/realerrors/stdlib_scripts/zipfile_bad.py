import zipfile, io
zipfile.ZipFile(io.BytesIO(b'not a zip file at all'))
