# ruff: noqa  (misuse on purpose: users write code like this)
from datetime import timezone, timedelta

timezone(timedelta(hours=30))
