import queue
queue.Queue().get_nowait()
