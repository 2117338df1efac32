import random
random.choices([1, 2], weights=[1])
