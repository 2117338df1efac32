# ruff: noqa  (misuse on purpose: users write code like this)
import asyncio


async def main():
    asyncio.run(asyncio.sleep(0))


asyncio.run(main())
