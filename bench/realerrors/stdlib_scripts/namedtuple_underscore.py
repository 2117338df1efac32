import collections
collections.namedtuple('P', ['_x'])
