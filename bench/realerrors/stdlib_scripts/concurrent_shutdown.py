from concurrent.futures import ThreadPoolExecutor
e = ThreadPoolExecutor()
e.shutdown()
e.submit(print, 1)
