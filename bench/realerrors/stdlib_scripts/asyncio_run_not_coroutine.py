import asyncio
asyncio.run(lambda: None)
