# ruff: noqa  (misuse on purpose: users write code like this)
from datetime import datetime

datetime.strptime("2024-13-01", "%Y-%m-%d")
