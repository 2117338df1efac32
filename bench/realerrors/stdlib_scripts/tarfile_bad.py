# ruff: noqa  (misuse on purpose: users write code like this)
import tarfile, io

tarfile.open(fileobj=io.BytesIO(b"garbage" * 100))
