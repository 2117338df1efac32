# ruff: noqa  (misuse on purpose: users write code like this)
import zipfile, io

zipfile.ZipFile(io.BytesIO(), "q")
