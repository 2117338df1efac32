import tomllib
tomllib.loads('a = 1\na = 2\n')
