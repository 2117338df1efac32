# ruff: noqa  (misuse on purpose: users write code like this)
import asyncio

asyncio.run(lambda: None)
