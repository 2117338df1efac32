# ruff: noqa  (misuse on purpose: users write code like this)
from typing import List

List[int, str]
