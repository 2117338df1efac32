import random
random.randrange(5, 5)
