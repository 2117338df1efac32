import zipfile, io
zipfile.ZipFile(io.BytesIO(), 'q')
