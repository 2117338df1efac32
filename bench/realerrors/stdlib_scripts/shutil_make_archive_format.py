import shutil
shutil.make_archive('/tmp/x', 'rar', '/tmp')
