import asyncio
async def main():
    asyncio.run(asyncio.sleep(0))
asyncio.run(main())
