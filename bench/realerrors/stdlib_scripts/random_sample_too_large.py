import random
random.sample(range(3), 5)
