import time
time.strptime('2024', '%Q')
