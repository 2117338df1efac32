from pathlib import Path
Path('a.txt').with_suffix('txt')
