import threading
threading.Semaphore(-1)
