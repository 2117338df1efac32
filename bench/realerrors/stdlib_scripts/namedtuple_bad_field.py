import collections
collections.namedtuple('P', ['x', 'class'])
