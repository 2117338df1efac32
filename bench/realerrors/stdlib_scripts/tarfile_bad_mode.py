import tarfile
tarfile.open('x.tar', 'rw')
