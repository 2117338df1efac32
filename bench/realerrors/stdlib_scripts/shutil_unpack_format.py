import shutil
shutil.unpack_archive('data.rar', '/tmp', format='rar')
