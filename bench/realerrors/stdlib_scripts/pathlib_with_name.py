from pathlib import PurePosixPath
PurePosixPath('/').with_name('x')
