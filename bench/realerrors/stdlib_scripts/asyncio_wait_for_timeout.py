# ruff: noqa  (misuse on purpose: users write code like this)
import asyncio


async def main():
    await asyncio.wait_for(asyncio.sleep(1), timeout=0.01)


asyncio.run(main())
