# ruff: noqa  (misuse on purpose: users write code like this)
from typing import Union

Union[()]
