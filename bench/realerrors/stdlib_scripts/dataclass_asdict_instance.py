from dataclasses import asdict
asdict({'x': 1})
