from typing import Callable
Callable[int, str]
