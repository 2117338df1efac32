import tomllib
tomllib.loads('a = ')
