from importlib import metadata
metadata.version('no-such-distribution-xyz')
