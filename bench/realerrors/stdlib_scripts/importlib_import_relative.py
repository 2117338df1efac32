# ruff: noqa  (misuse on purpose: users write code like this)
import importlib

importlib.import_module(".sub")
