# ruff: noqa  (misuse on purpose: users write code like this)
from datetime import datetime

datetime.strptime("2024-01-01 10:00", "%Y-%m-%d")
