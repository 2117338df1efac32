import operator
operator.attrgetter(1)
