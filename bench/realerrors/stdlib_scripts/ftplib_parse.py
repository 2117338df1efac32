import ftplib
ftplib.parse227('227 nothing here')
